// An API header including a lower layer: allowed.
#pragma once
#include "tidemark/core/low.h"
