// The gpuscan gateway's scan of host arrays (gpuscan.cc), for __gpuscan__.
#ifndef GPUSCAN_GATEWAY_H
#define GPUSCAN_GATEWAY_H

#include <octave/oct.h>

// The plan of gpuscan (args{:}) in words, as it would run now; nothing runs (host X only)
octave_value gpuscan_plan (const octave_value_list& args, int nargout);

#endif
