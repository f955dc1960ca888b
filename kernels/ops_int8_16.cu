// Instantiates the scan plans of one group of operators (see op_list.h).
#include "device_scan.cuh"
#include "op_list.h"

#define GSK_PLAN(Op) template struct gsk::plan<gsk::Op>;
GSK_OPS_INT8_16 (GSK_PLAN)
