/* The CPU engine's linear recurrence y(k) = a(k) y(k-1) + b(k) (scan_desc: op
   SCAN_RECURRENCE; b in x, a in coef). */
#ifndef GPUSCAN_CPU_RECURRENCE_H
#define GPUSCAN_CPU_RECURRENCE_H

#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -1 for a type it does not take (double, single and their complex only) */
int cpu_recurrence (const scan_desc *d, int nthreads);

#ifdef __cplusplus
}
#endif
#endif
