#!/usr/bin/env bash
# What setup.sh and run-tests.sh build here, printed as configure flags on stdout (one
# line; empty: the CUDA engine for the GPUs nvidia-smi reports), why on stderr:
#   GPUSCAN_CONFIGURE_FLAGS, where set, decides (--with-cuda, --without-cuda, ...);
#   else the CUDA engine where nvidia-smi reports a GPU and nvcc is found (on PATH, in
#   CUDA_HOME or /usr/local/cuda), and nvcc compiles for that GPU;
#   else the CPU engine only, with the command that adds the GPU engine later;
#   an nvidia-smi that finds no GPU (no driver) or an nvcc too old for the GPU: exit 1.
set -euo pipefail
if [ -n "${GPUSCAN_CONFIGURE_FLAGS+set}" ]; then
  echo "gpuscan: configure flags from GPUSCAN_CONFIGURE_FLAGS: ${GPUSCAN_CONFIGURE_FLAGS:-(none)}" >&2
  echo "$GPUSCAN_CONFIGURE_FLAGS"
  exit 0
fi
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ] && nvcc=$CUDA_HOME/bin/nvcc
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
later="GPUSCAN_CONFIGURE_FLAGS=--with-cuda bash setup.sh"
if ! command -v nvidia-smi >/dev/null; then
  echo "gpuscan: no GPU found (no nvidia-smi): building the CPU engine only; to add the GPU engine later: $later" >&2
  echo --without-cuda
  exit 0
fi
if ! caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>&1) || [ -z "$caps" ]; then
  echo "gpuscan: nvidia-smi is here but finds no GPU it can use (is the NVIDIA driver loaded? it said: $(echo "$caps" | head -n 1)): load the driver and run this again, or build the CPU engine only with GPUSCAN_CONFIGURE_FLAGS=--without-cuda bash setup.sh" >&2
  exit 1
fi
if [ -z "$nvcc" ]; then
  echo "gpuscan: a GPU but no nvcc (the CUDA toolkit): building the CPU engine only; install the CUDA toolkit, then: $later" >&2
  echo --without-cuda
  exit 0
fi
# an nvcc too old for the GPU cannot compile for it: say so rather than fail in pkg install
for cap in $(echo "$caps" | tr -d '.' | sort -u); do
  tmp=$(mktemp -d)
  echo '__global__ void k (int *p) { *p = 1; }' > "$tmp/k.cu"
  if ! "$nvcc" -gencode "arch=compute_$cap,code=sm_$cap" -c "$tmp/k.cu" -o "$tmp/k.o" >"$tmp/log" 2>&1; then
    echo "gpuscan: $nvcc ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')) cannot compile for this GPU (sm_$cap): install a newer CUDA toolkit, or build the CPU engine only with GPUSCAN_CONFIGURE_FLAGS=--without-cuda bash setup.sh" >&2
    rm -rf "$tmp"
    exit 1
  fi
  rm -rf "$tmp"
done
echo "gpuscan: building the CUDA engine for this machine's GPU (sm $(echo "$caps" | tr -d '.' | sort -u | tr '\n' ' ')) with $nvcc" >&2
echo ""
