// A header in a folder that belongs to no layer: the layer check must name it.
#pragma once
