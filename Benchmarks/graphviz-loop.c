#include <gvc.h>
#include <cgraph.h>
#include <stdio.h>
#include <stdlib.h>
static int quiet(char *m) { (void)m; return 0; }
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    const char *dot = "digraph \"x\" { node [shape=box]; a [label=\"a\"]; b [label=\"b\"]; a -> b [label=\"go\"]; }";
    agseterrf(quiet);
    GVC_t *gvc = gvContext();
    for (int i = 0; i < n; i++) {
        Agraph_t *g = agmemread(dot);
        gvLayout(gvc, g, "dot");
        char *data; unsigned int len;
        gvRenderData(gvc, g, "svg", &data, &len);
        gvFreeRenderData(data);
        gvFreeLayout(gvc, g);
        agclose(g);
    }
    gvFreeContext(gvc);
    return 0;
}
