/* The words every engine shares with the layer above: the algorithms a scan can be asked
   to run with, and what a call answers. */
#ifndef GPUSCAN_SCAN_STATUS_H
#define GPUSCAN_SCAN_STATUS_H

typedef enum scan_algorithm {
  ALG_AUTO, ALG_CPU, ALG_KOGGE_STONE, ALG_BRENT_KUNG, ALG_DECOUPLED, ALG_CUB,
  ALG_COUNT
} scan_algorithm;

typedef enum engine_status {
  ENGINE_OK = 0,
  ENGINE_UNSUPPORTED,   /* this (type, operator) has no scan in the engine asked for */
  ENGINE_NO_GPU,        /* a GPU algorithm was asked for and no usable GPU is there */
  ENGINE_GPU_ERROR,     /* the GPU failed; message in the buffer */
  ENGINE_NO_MEMORY,
  ENGINE_BAD_SETTING    /* an environment variable of gpuscan's holds no valid value */
} engine_status;

#endif
