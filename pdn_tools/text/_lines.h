/* The line writer shared by the compiled writers of movetexts (_lines.c: movetext_lines, _wrap.c:
 * numbered_text): a growing buffer of characters, and unbreakable pieces joined into lines of at
 * most a width as writer.wrap joins them.
 * twin: pdn_tools.text.writer.wrap */
#ifndef PDN_TOOLS_LINES_H
#define PDN_TOOLS_LINES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
    Py_UCS4 *chars;
    Py_ssize_t len, size;
} Buffer;

static inline int room(Buffer *b, Py_ssize_t more) {
    if (b->len + more <= b->size)
        return 0;
    Py_ssize_t size = b->size ? 2 * b->size : 256;
    while (size < b->len + more)
        size *= 2;
    Py_UCS4 *chars = PyMem_Realloc(b->chars, (size_t)size * sizeof(Py_UCS4));
    if (chars == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->chars = chars;
    b->size = size;
    return 0;
}

static inline int put(Buffer *b, const Py_UCS4 *chars, Py_ssize_t n) {
    if (n == 0)                          /* nothing to copy: b->chars or chars may still be NULL */
        return 0;
    if (room(b, n) < 0)
        return -1;
    memcpy(b->chars + b->len, chars, (size_t)n * sizeof(Py_UCS4));
    b->len += n;
    return 0;
}

static inline int put_char(Buffer *b, Py_UCS4 ch) {
    return put(b, &ch, 1);
}

/* writer.wrap's state: the lines done (joined by newlines), the line being filled. */
typedef struct {
    Buffer done, line;
    Py_ssize_t lines;
    Py_ssize_t width;
} Lines;

static inline int end_line(Lines *w) {
    if ((w->lines++ && put_char(&w->done, '\n') < 0) || put(&w->done, w->line.chars, w->line.len) < 0)
        return -1;
    w->line.len = 0;
    return 0;
}

/* One unbreakable piece, as writer.wrap takes it. */
static inline int wrap_atom(Lines *w, const Py_UCS4 *atom, Py_ssize_t n) {
    int ends_line = n > 0 && atom[n - 1] == '\n';
    while (n > 0 && atom[n - 1] == '\n')
        n--;
    Buffer *line = &w->line;
    if (line->len) {
        Py_UCS4 last = line->chars[line->len - 1];
        int glued = last == '(' || (n == 1 && atom[0] == ')');
        if ((last == '-' && n > 0 && atom[0] == '-') || line->len + !glued + n > w->width) {
            if (end_line(w) < 0)
                return -1;
        } else if (!glued && put_char(line, ' ') < 0) {
            return -1;
        }
    }
    if (put(line, atom, n) < 0)
        return -1;
    return ends_line ? end_line(w) : 0;
}

#endif
