// The windows' TypeSerializers live with the types (time_window.h,
// global_window.h), so that every translation unit that keeps state or
// timers per window sees the same format; this header names both.
#pragma once

#include "tidemark/windowing/global_window.h"
#include "tidemark/windowing/time_window.h"
