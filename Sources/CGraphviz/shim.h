// Graphviz's C API (libgvc, libcgraph), found with pkg-config `libgvc` (Debian: libgraphviz-dev), and
// small functions over what Swift cannot import (macros) or what is loaded at run time (fontconfig,
// Pango: the libraries Graphviz's text layout uses to pick fonts and draw text).
#include <gvc.h>
#include <cgraph.h>
#include <types.h>
#include <string.h>
#include <dlfcn.h>

// Graphviz keeps the results of a layout in records reached through macros (ND_coord, ED_label,
// GD_bb, ...), which Swift cannot import. These functions read them. Coordinates are in points,
// y upwards, as Graphviz lays out; a box is given by its centre and its size.

/// A box laid out by Graphviz: centre and size, in points.
typedef struct {
    double x, y, width, height;
} fs_box;

/// Whether an object carries layout records (a layout ran and bound them).
static inline int fs_has_layout(void *object) {
    return object != NULL && AGDATA(object) != NULL;
}

/// A node's box after layout (its shape's bounding box).
static inline fs_box fs_node_box(Agnode_t *node) {
    fs_box box = { ND_coord(node).x, ND_coord(node).y, ND_width(node) * 72.0, ND_height(node) * 72.0 };
    return box;
}

/// Reads a text label's box and text: returns 0 when there is no label, 1 when it was placed (the box
/// is where), 2 when it exists but was not placed (only the box's size means something).
static inline int fs_text_label(textlabel_t *label, fs_box *box, const char **text, const char **fontName) {
    if (label == NULL) return 0;
    *fontName = label->fontname;
    box->x = label->pos.x;
    box->y = label->pos.y;
    box->width = label->dimen.x;
    box->height = label->dimen.y;
    *text = label->text;
    return label->set ? 1 : 2;
}

/// A node's own label (the text inside its shape): the box is the text's, centred on the node; 0
/// when it has none.
static inline int fs_node_label(Agnode_t *node, fs_box *box, const char **text, const char **fontName) {
    textlabel_t *label = ND_label(node);
    if (label == NULL) return 0;
    *fontName = label->fontname;
    box->x = ND_coord(node).x;
    box->y = ND_coord(node).y;
    box->width = label->dimen.x;
    box->height = label->dimen.y;
    *text = label->text;
    return 1;
}

/// An attribute's value on a node, edge or graph, or NULL when it is not declared.
static inline const char *fs_get(void *object, const char *name) {
    return agget(object, (char *)name);
}

/// A node's external label (`xlabel`), if placed.
static inline int fs_node_xlabel(Agnode_t *node, fs_box *box, const char **text, const char **fontName) {
    return fs_text_label(ND_xlabel(node), box, text, fontName);
}

/// Which label of an edge `fs_edge_text_label` reads.
typedef enum { fs_edge_label = 0, fs_edge_xlabel = 1, fs_edge_head_label = 2, fs_edge_tail_label = 3 } fs_edge_label_kind;

/// One of an edge's labels, if it exists and was placed.
static inline int fs_edge_text_label(Agedge_t *edge, fs_edge_label_kind kind, fs_box *box, const char **text,
                                     const char **fontName) {
    switch (kind) {
    case fs_edge_label: return fs_text_label(ED_label(edge), box, text, fontName);
    case fs_edge_xlabel: return fs_text_label(ED_xlabel(edge), box, text, fontName);
    case fs_edge_head_label: return fs_text_label(ED_head_label(edge), box, text, fontName);
    case fs_edge_tail_label: return fs_text_label(ED_tail_label(edge), box, text, fontName);
    }
    return 0;
}

/// A graph's or cluster's bounding box after layout (centre and size).
static inline fs_box fs_graph_box(Agraph_t *graph) {
    boxf bb = GD_bb(graph);
    fs_box box = { (bb.LL.x + bb.UR.x) / 2, (bb.LL.y + bb.UR.y) / 2, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y };
    return box;
}

/// A graph's or cluster's label, if it has one and it was placed.
static inline int fs_graph_label(Agraph_t *graph, fs_box *box, const char **text, const char **fontName) {
    return fs_text_label(GD_label(graph), box, text, fontName);
}

/// Whether a subgraph is a cluster (its name starts with `cluster`, as Graphviz decides).
static inline int fs_is_cluster(Agraph_t *graph) {
    const char *name = agnameof(graph);
    return name != NULL && strncmp(name, "cluster", 7) == 0;
}

// Fontconfig: which installed font draws a character for a font name, chosen as Pango (Graphviz's
// text layout) chooses: the fonts matching the name, best first, then the first that has the glyph.
// Fontconfig is loaded at run time, as Graphviz's pango plugin loads it: no headers or link flags are
// needed, and where it is missing these functions say so instead of failing to link. Its ABI (the
// `libfontconfig.so.1` soname, FcFontSet's layout) has been stable since 2003.

/// fontconfig's list of fonts (`FcFontSet`): `fonts` points to `count` patterns.
typedef struct {
    int count;
    int capacity;
    void **fonts;
} fs_font_set;

/// fontconfig, loaded once (NULL when it cannot be).
static inline void *fs_fontconfig(void) {
    static void *library = NULL;
    if (library == NULL) library = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libfontconfig.1.dylib", RTLD_NOW | RTLD_LOCAL);
    return library;
}

/// The installed fonts for a font name (a Graphviz `fontname`: a family or a comma-separated list),
/// best first, as fontconfig sorts them for Pango; NULL when fontconfig is unavailable. The caller
/// keeps it (FontCoverage keeps one per font name for the life of the process).
static inline fs_font_set *fs_fonts_sorted(const char *fontName) {
    void *fc = fs_fontconfig();
    if (fc == NULL) return NULL;
    int (*init)(void) = (int (*)(void))dlsym(fc, "FcInit");
    void *(*name_parse)(const char *) = (void *(*)(const char *))dlsym(fc, "FcNameParse");
    int (*config_substitute)(void *, void *, int) = (int (*)(void *, void *, int))dlsym(fc, "FcConfigSubstitute");
    void (*default_substitute)(void *) = (void (*)(void *))dlsym(fc, "FcDefaultSubstitute");
    fs_font_set *(*font_sort)(void *, void *, int, void **, int *) =
        (fs_font_set *(*)(void *, void *, int, void **, int *))dlsym(fc, "FcFontSort");
    void (*pattern_destroy)(void *) = (void (*)(void *))dlsym(fc, "FcPatternDestroy");
    if (!init || !name_parse || !config_substitute || !default_substitute || !font_sort || !pattern_destroy) return NULL;
    if (!init()) return NULL;
    void *pattern = name_parse(fontName);
    if (pattern == NULL) return NULL;
    config_substitute(NULL, pattern, 0 /* FcMatchPattern */);
    default_substitute(pattern);
    int result = 0;
    fs_font_set *fonts = font_sort(NULL, pattern, 1 /* trim */, NULL, &result);
    pattern_destroy(pattern);
    return fonts;
}

/// Writes into `family` (at most `capacity` bytes, NUL-terminated) the family of the first font of
/// `fonts` that has a glyph for `character`, and returns 1; returns 0 when none has.
static inline int fs_fonts_family_for(fs_font_set *fonts, unsigned int character, char *family, int capacity) {
    void *fc = fs_fontconfig();
    if (fonts == NULL || fc == NULL || capacity <= 0) return 0;
    int (*get_charset)(void *, const char *, int, void **) =
        (int (*)(void *, const char *, int, void **))dlsym(fc, "FcPatternGetCharSet");
    int (*has_char)(void *, unsigned int) = (int (*)(void *, unsigned int))dlsym(fc, "FcCharSetHasChar");
    int (*get_string)(void *, const char *, int, unsigned char **) =
        (int (*)(void *, const char *, int, unsigned char **))dlsym(fc, "FcPatternGetString");
    if (!get_charset || !has_char || !get_string) return 0;
    for (int i = 0; i < fonts->count; i++) {
        void *charset = NULL;
        if (get_charset(fonts->fonts[i], "charset", 0, &charset) != 0 /* FcResultMatch */) continue;
        if (!has_char(charset, character)) continue;
        unsigned char *name = NULL;
        family[0] = 0;
        if (get_string(fonts->fonts[i], "family", 0, &name) == 0 && name != NULL) {
            strncpy(family, (const char *)name, (size_t)capacity - 1);
            family[capacity - 1] = 0;
        }
        return 1;
    }
    return 0;
}

/// Writes into `family` (at most `capacity` bytes, NUL-terminated) the family of the first font of
/// `fonts`, the one fontconfig substitutes for the name sorted (an alias or a metric-compatible
/// clone when the named family is not installed), and returns 1; returns 0 when there is none.
static inline int fs_fonts_first_family(fs_font_set *fonts, char *family, int capacity) {
    void *fc = fs_fontconfig();
    if (fonts == NULL || fc == NULL || capacity <= 0 || fonts->count < 1) return 0;
    int (*get_string)(void *, const char *, int, unsigned char **) =
        (int (*)(void *, const char *, int, unsigned char **))dlsym(fc, "FcPatternGetString");
    if (!get_string) return 0;
    unsigned char *name = NULL;
    if (get_string(fonts->fonts[0], "family", 0, &name) != 0 || name == NULL) return 0;
    strncpy(family, (const char *)name, (size_t)capacity - 1);
    family[capacity - 1] = 0;
    return 1;
}

// Pango, as Graphviz's cairo renderer (PNG, PDF) uses it to lay text out and draw it. Loaded at run
// time from the same shared libraries Graphviz's pango plugin loads, so no Pango headers are needed.

/// How many characters of `text` Pango draws as a missing-glyph box (a hex box) with the font
/// `fontName` at `size` points; -1 when Pango cannot be loaded.
static inline int fs_pango_unknown_glyphs(const char *fontName, double size, const char *text) {
    static void *pango = NULL, *gobject = NULL;
    if (pango == NULL) pango = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (pango == NULL) pango = dlopen("libpangocairo-1.0.0.dylib", RTLD_NOW | RTLD_LOCAL);
    if (gobject == NULL) gobject = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (gobject == NULL) gobject = dlopen("libgobject-2.0.0.dylib", RTLD_NOW | RTLD_LOCAL);
    if (pango == NULL || gobject == NULL) return -1;
    void *(*font_map_new)(void) = (void *(*)(void))dlsym(pango, "pango_cairo_font_map_new");
    void *(*create_context)(void *) = (void *(*)(void *))dlsym(pango, "pango_font_map_create_context");
    void *(*layout_new)(void *) = (void *(*)(void *))dlsym(pango, "pango_layout_new");
    void *(*description_from_string)(const char *) = (void *(*)(const char *))dlsym(pango, "pango_font_description_from_string");
    void (*set_absolute_size)(void *, double) = (void (*)(void *, double))dlsym(pango, "pango_font_description_set_absolute_size");
    void (*description_free)(void *) = (void (*)(void *))dlsym(pango, "pango_font_description_free");
    void (*set_description)(void *, const void *) = (void (*)(void *, const void *))dlsym(pango, "pango_layout_set_font_description");
    void (*set_text)(void *, const char *, int) = (void (*)(void *, const char *, int))dlsym(pango, "pango_layout_set_text");
    int (*unknown_glyphs)(void *) = (int (*)(void *))dlsym(pango, "pango_layout_get_unknown_glyphs_count");
    void (*unref)(void *) = (void (*)(void *))dlsym(gobject, "g_object_unref");
    if (!font_map_new || !create_context || !layout_new || !description_from_string || !set_absolute_size
        || !description_free || !set_description || !set_text || !unknown_glyphs || !unref) return -1;
    void *map = font_map_new();
    void *context = create_context(map);
    void *layout = layout_new(context);
    void *description = description_from_string(fontName);
    set_absolute_size(description, size * 1024.0);  // PANGO_SCALE
    set_description(layout, description);
    set_text(layout, text, -1);
    int count = unknown_glyphs(layout);
    description_free(description);
    unref(layout);
    unref(context);
    unref(map);
    return count;
}

/// An edge's head node (`aghead` is a macro).
static inline Agnode_t *fs_edge_head(Agedge_t *edge) {
    return aghead(edge);
}
