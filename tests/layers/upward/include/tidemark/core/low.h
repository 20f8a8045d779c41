// A core header that reaches up into the API: the layer check must name it.
#pragma once
#include "tidemark/api/high.h"
