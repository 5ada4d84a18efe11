// The system's zlib, for gzip streams (a Takeout's .tgz archives).
#include <zlib.h>
