// The system libvips (Debian's libvips-dev), found through pkg-config.
#include <vips/vips.h>
