// Graphviz's C API (libgvc, libcgraph), found with pkg-config `libgvc` (Debian: libgraphviz-dev).
#include <gvc.h>
#include <cgraph.h>
