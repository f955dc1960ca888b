// Instantiates the scan plans of one group of operators, GSK_OPS_GROUP (op_list.h):
// src/Makefile compiles this unit once a group, as ops_<group>.o.
#include "dispatch/device_scan.cuh"
#include "ops/op_list.h"

#ifndef GSK_OPS_GROUP
#error "GSK_OPS_GROUP names a group of op_list.h, e.g. -DGSK_OPS_GROUP=double"
#endif
#define GSK_GROUP_MACRO(g) GSK_OPS_##g
#define GSK_GROUP(g) GSK_GROUP_MACRO (g)
#define GSK_PLAN(Op) template struct gsk::plan<gsk::Op>;
GSK_GROUP (GSK_OPS_GROUP) (GSK_PLAN)
