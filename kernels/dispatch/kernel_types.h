/* The types the kernels' C interface (scan_kernels.h) and the plans (device_scan.cuh,
   lanes_scan.cuh) share: the algorithms, and the context the kernels keep. */
#ifndef GPUSCAN_KERNEL_TYPES_H
#define GPUSCAN_KERNEL_TYPES_H

typedef enum gsk_algorithm {
  GSK_DECOUPLED,     /* single pass, decoupled look-back (Merrill & Garland 2016) */
  GSK_KOGGE_STONE,   /* hierarchical: reduce tiles, scan tile totals, scan tiles (Kogge-Stone) */
  GSK_BRENT_KUNG,    /* the same with the Brent-Kung block scan */
  GSK_CUB,           /* CUB's DeviceScan sum (double, single, one forward line), else GSK_DECOUPLED */
  GSK_NALGORITHMS
} gsk_algorithm;

/* What the kernels keep of the CUDA context between calls (context.cuh): made for the
   current device once it is set, freed before a device reset (and made anew after). */
typedef struct gsk_context gsk_context;

#endif
