/* The compiled reading of the common game (in the scanner's extension, _scan.c): its tokens read at once;
 * the runs of plain moves in it read as _runs.c reads them. */
#include "_scan.h"

/* ---- the common game, read at once --------------------------------------------------------
 * fast_game(text, pos, endpos, last) -> the tokens the scanner (scanner.Scanner.tokens) makes of
 * the common game starting at `pos` (a '['), or None when the game there is not one:
 *   tag pairs `[Name "value"]` (a name PDN allows, a value maybe with escapes or over lines: pairs
 *   builder._tags reads with no diagnostic), spaces, tabs, form feeds, literal escapes `\r` and `\n` and a
 *   line end at most between; runs of plain
 *   moves (builder._PLAIN_RUN or builder._PADDED_RUN, each ending with a move) and block comments
 *   (with no blank line in them), white space between (literal escapes in it too: an ESCAPE span); a
 *   result or '*', then spaces, tabs or literal escapes and a line end before `endpos`, or `endpos`
 *   itself when `last` (no more text follows it), or a '[' at once (the next game's tags, glued to it).
 * Returns (pairs, tags_end, spans, padded, places): each run, comment, white space holding a literal escape
 * and the terminator as (start, end, kind: 0 MOVES, 1 COMMENT, 2 RESULT, 3 STAR, 4 ESCAPE, line ends since
 * the start of the span before (of TAGS' end for
 * the first), the offset after the last of them (-1: none), whether a blank line comes just before it);
 * builder._padded_run's warnings about the zero-padded move numbers and moves of the runs, in order, as
 * (message, line ends before it since `pos`, the offset after the last of them (-1: none), its offset);
 * None when the pairs stand one a line, each after the first at
 * its line's start, else each pair's '[' as (offset, line ends before it since `pos`, the offset after the
 * last of them (-1: none), whether a literal escape comes before it: builder._tags warns about it); every
 * other text is left to the scanner, whose tokens
 * for it these are (tests/text/test_fast_read.py compares the two readings; the locating's twin:
 * pdn_tools.text.scanner._fast_tokens). */

/* [A-Z][A-Za-z0-9_]* */
static Py_ssize_t tag_name_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (!(c >= 'A' && c <= 'Z'))
        return -1;
    for (i++;; i++) {
        c = char_at(t, i);
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_'))
            return i;
    }
}

/* Whether text[i:] starts with a literal escape \r or \n (two characters: broken exports). */
static inline int is_escape(const Text *t, Py_ssize_t i) {
    return char_at(t, i) == '\\' && (char_at(t, i + 1) == 'r' || char_at(t, i + 1) == 'n');
}

/* The result (the grammar's RESULT) ending at white space, a line end or a '[', else -1. */
static Py_ssize_t result_end(const Text *t, Py_ssize_t i) {
    static const char *const RESULTS[] = {"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "\xbd-\xbd",
                                          "0.5-0.5", "1:0", "0:1", "1/2:1/2", NULL};
    for (int r = 0; RESULTS[r] != NULL; r++) {
        const unsigned char *s = (const unsigned char *)RESULTS[r];
        Py_ssize_t j = i;
        while (*s && char_at(t, j) == (Py_UCS4)*s) {
            s++;
            j++;
        }
        if (*s == 0) {
            Py_UCS4 after = char_at(t, j);
            return after == ' ' || after == '\t' || after == '\n' || after == '[' || is_escape(t, j) || j == t->end
                   ? j : -1;
        }
    }
    return -1;
}

/* The end of the comment (the grammar's COMMENT) at `i`, a '{', when it closes with no blank line in it
 * (one followed by a tag pair would not be a comment), else -1. */
static Py_ssize_t comment_end(const Text *t, Py_ssize_t i) {
    for (Py_ssize_t j = i + 1;; j++) {
        Py_UCS4 c = char_at(t, j);
        if (c == '}')
            return j + 1;
        if (c == 0)
            return -1;
        if (c == '\n') {
            Py_ssize_t k = j + 1;
            while (char_at(t, k) == ' ' || char_at(t, k) == '\t' || char_at(t, k) == '\f')
                k++;
            if (char_at(t, k) == '\n')
                return -1;
        }
    }
}

/* A span of the game: a run (padded: a zero-padded one), a comment, white space holding a literal escape
 * (the scanner's ESCAPE) or the terminator: `kind` as fast_game gives it (the terminator's decided last). */
typedef struct {
    Py_ssize_t start, end;
    int kind, padded;
} Span;

enum { MOVES = 0, COMMENT = 1, RESULT = 2, STAR = 3, ESCAPE = 4 };

/* The end of the run of moves (the scanner's MOVES, a plain or zero-padded run ending with a move) at
 * `i`, else -1; `*padded` says which. */
static Py_ssize_t run_end(const Text *t, Py_ssize_t i, int *padded) {
    Py_ssize_t end = scan_item_end(t, i);
    for (Py_ssize_t next = end; next >= 0; next = scan_item_end(t, scan_gap_end(t, end)))
        end = next;
    if (end < 0 || char_at(t, end - 1) == '.')
        return -1;
    *padded = 0;
    if (scan_is_run(t, i, end, 0))
        return end;
    *padded = 1;
    return scan_is_run(t, i, end, 1) ? end : -1;
}

/* Whether the move text[start:end] of a padded run has a zero-padded square: a '0' after no digit. */
static int padded_move(const Text *t, Py_ssize_t start, Py_ssize_t end) {
    for (Py_ssize_t j = start; j < end; j++)
        if (char_at(t, j) == '0' && (j == start || !is_digit(char_at(t, j - 1))))
            return 1;
    return 0;
}

/* builder._padded_number's or _padded_square's message about text[start:end], a move number or a move of a
 * padded run (digits, '.', '-', 'x', ' ': its repr is the text quoted), interned as _quirk interns it. */
static PyObject *padded_message(const Text *t, int number, Py_ssize_t start, Py_ssize_t end) {
    const char *prefix = number ? "zero-padded move number '" : "zero-padded square in '";
    Py_ssize_t size = (Py_ssize_t)strlen(prefix);
    PyObject *message = PyUnicode_New(size + end - start + 1, 127);
    if (message == NULL)
        return NULL;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(message);
    memcpy(out, prefix, (size_t)size);
    for (Py_ssize_t j = start; j < end; j++)
        out[size++] = (Py_UCS1)char_at(t, j);
    out[size] = '\'';
    PyUnicode_InternInPlace(&message);
    return message;
}

/* Add to `out` the zero-padded move numbers and moves of the padded run `span` as builder._padded_run
 * warns about them (see fast_game): `newlines` line ends come before the run since the game's start, the
 * last of them ending at `line_start` (-1: none); -1 on error. */
static int add_padded(const Text *t, const Span *span, Py_ssize_t newlines, Py_ssize_t line_start, PyObject *out) {
    Text run = {t->kind, t->data, span->end};
    Py_ssize_t i = span->start;
    while (i < span->end) {
        Py_ssize_t end = scan_run_item_end(&run, i, 1), move = i;
        if (end < 0) {                                  /* not a padded run: read_game said it is one */
            PyErr_SetString(PyExc_SystemError, "fast_game: a padded run read again differs");
            return -1;
        }
        for (Py_ssize_t j = i; j < end; j++)          /* a move number's dots end it */
            if (char_at(t, j) == '.')
                move = j + 1;
        Py_ssize_t found[2][2] = {{-1, -1}, {-1, -1}};  /* the number's, the move's place */
        if (move > i && char_at(t, i) == '0')
            found[0][0] = i, found[0][1] = move;
        if (move < end && padded_move(t, move, end))
            found[1][0] = move, found[1][1] = end;
        for (int k = 0; k < 2; k++) {
            if (found[k][0] < 0)
                continue;
            PyObject *message = padded_message(t, k == 0, found[k][0], found[k][1]);
            if (message == NULL)
                return -1;
            PyObject *item = Py_BuildValue("(Nnnn)", message, newlines, line_start, found[k][0]);
            if (item == NULL || PyList_Append(out, item) < 0) {
                Py_XDECREF(item);
                return -1;
            }
            Py_DECREF(item);
        }
        for (i = end; run_space(char_at(&run, i)); i++)
            if (char_at(t, i) == '\n') {
                newlines++;
                line_start = i + 1;
            }
    }
    return 0;
}

/* The tag pairs of a game fast_game reads: each one's name and value (start, end), whether a literal escape
 * comes before it, how many, whether they stand one a line, each after the first at its line's start, and
 * where TAGS ends. */
typedef struct {
    Py_ssize_t bounds[32][4];
    int escaped[32];                /* a literal escape in the gap before the pair */
    int backslash[32];              /* a backslash in its value (an escape to undo, maybe) */
    int count, regular;
    Py_ssize_t end;
} Tags;

/* (?:[ \t\f]|\\[rn])* from `i`: its end; `*escaped` set when it holds a literal escape. */
static Py_ssize_t line_space_end(const Text *t, Py_ssize_t i, int *escaped) {
    for (;;) {
        Py_UCS4 c = char_at(t, i);
        if (c == ' ' || c == '\t' || c == '\f')
            i++;
        else if (is_escape(t, i))
            i += 2, *escaped = 1;
        else
            return i;
    }
}

/* The tags' _TAG_GAP, (?:[ \t\f]|\\[rn])*\n?(?:[ \t\f]|\\[rn])*, from `i`: its end (`*escaped` as above). */
static Py_ssize_t tag_gap_end(const Text *t, Py_ssize_t i, int *escaped) {
    i = line_space_end(t, i, escaped);
    if (char_at(t, i) == '\n')
        i++;
    return line_space_end(t, i, escaped);
}

/* The scanner's white space, (?:[ \t\f\n]|\\[rn])*, from `i`: its end (`*escaped` as above). */
static Py_ssize_t space_end(const Text *t, Py_ssize_t i, int *escaped) {
    for (;;) {
        i = line_space_end(t, i, escaped);
        if (char_at(t, i) != '\n')
            return i;
        i++;
    }
}

/* A game's spans: the first 64 on the stack, more on the heap. */
typedef struct {
    Span *items;
    Py_ssize_t found, size;
    Span first[64];
} Spans;

/* A new span at the end of `spans`, or NULL (memory error). */
static Span *new_span(Spans *spans) {
    if (spans->found == spans->size) {
        Py_ssize_t size = 2 * spans->size;
        Span *grown = spans->items == spans->first ? PyMem_Malloc((size_t)size * sizeof(Span))
                                                   : PyMem_Realloc(spans->items, (size_t)size * sizeof(Span));
        if (grown == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        if (spans->items == spans->first)
            memcpy(grown, spans->first, sizeof(spans->first));
        spans->items = grown, spans->size = size;
    }
    Span *span = spans->items + spans->found++;
    span->padded = 0;
    return span;
}

/* Whether fast_game's arguments hold a game it reads: its tags in `tags`, its spans (the terminator
 * last) in `spans`; 0 when it is not a common game, -1 on error. */
static int read_game(const Text *t, Py_ssize_t pos, int last, Tags *tags, Spans *spans) {
    Py_ssize_t i = pos;
    tags->count = 0, tags->regular = 1, tags->escaped[0] = 0;
    for (;;) {                                  /* `[Name "value"]`, white space and a line end at most between */
        if (tags->count == 32 || char_at(t, i) != '[')
            return 0;
        Py_ssize_t name = i + 1, name_end = tag_name_end(t, name);
        if (name_end < 0 || char_at(t, name_end) != ' ' || char_at(t, name_end + 1) != '"')
            return 0;
        Py_ssize_t value = name_end + 2, j = value;
        tags->backslash[tags->count] = 0;
        for (Py_UCS4 c = char_at(t, j); c != '"'; c = char_at(t, ++j)) {
            if (c == 0)
                return 0;
            tags->regular = tags->regular && c != '\n';          /* a value over lines: each pair placed */
            if (c == '\\') {                                       /* \\. escapes any character */
                if (char_at(t, j + 1) == '\n' || char_at(t, ++j) == 0)
                    return 0;
                tags->backslash[tags->count] = 1;
            }
        }
        if (char_at(t, j + 1) != ']')
            return 0;
        Py_ssize_t *bounds = tags->bounds[tags->count++];
        bounds[0] = name, bounds[1] = name_end, bounds[2] = value, bounds[3] = j;
        i = j + 2;
        int escaped = 0;
        Py_ssize_t gap = char_at(t, i) == '\n' && char_at(t, i + 1) == '[' ? i + 1       /* one a line */
                       : tag_gap_end(t, i, &escaped);     /* no tag may follow after TAGS' gap but one read here */
        if (char_at(t, gap) != '[')
            break;
        tags->regular = tags->regular && gap == i + 1 && char_at(t, i) == '\n';
        if (tags->count < 32)
            tags->escaped[tags->count] = escaped;
        i = gap;
    }
    tags->end = i;
    Py_ssize_t term = i, term_end;
    for (;;) {                                  /* runs and comments up to the result, white space between */
        int escaped = 0;
        Py_ssize_t gap = space_end(t, term, &escaped);
        Span *span;
        if (escaped) {                          /* the scanner's ESCAPE: the white space whole */
            if ((span = new_span(spans)) == NULL)
                return -1;
            span->start = term, span->end = gap, span->kind = ESCAPE;
        }
        term = gap;
        if ((span = new_span(spans)) == NULL)
            return -1;
        term_end = char_at(t, term) == '*' ? term + 1 : result_end(t, term);
        if (term_end >= 0) {
            span->start = term, span->end = term_end, span->kind = char_at(t, term) == '*' ? STAR : RESULT;
            break;
        }
        int comment = char_at(t, term) == '{';
        Py_ssize_t end = comment ? comment_end(t, term) : run_end(t, term, &span->padded);
        if (end < 0)
            return 0;
        span->start = term, span->end = end, span->kind = comment ? COMMENT : MOVES;
        term = end;
    }
    int escaped = 0;                            /* spaces, tabs, literal escapes, then a line end; or a '[' at once */
    Py_ssize_t line_end = line_space_end(t, term_end, &escaped);
    (void)escaped;
    return char_at(t, line_end) == '\n' || (last && line_end == t->end)
           || (line_end == term_end && char_at(t, term_end) == '[');
}

/* The tag value text[start:end], which holds a backslash, with its escapes \" and \\ undone (builder.unescape;
 * any other backslash kept). */
static PyObject *tag_value(const Text *t, Py_ssize_t start, Py_ssize_t end) {
    Py_ssize_t j;
    Py_UCS4 *chars = PyMem_Malloc((size_t)(end - start) * sizeof(Py_UCS4));
    if (chars == NULL)
        return PyErr_NoMemory();
    Py_ssize_t size = 0;
    for (j = start; j < end; j++) {
        Py_UCS4 c = char_at(t, j);
        if (c == '\\' && (char_at(t, j + 1) == '"' || char_at(t, j + 1) == '\\'))
            c = char_at(t, ++j);
        chars[size++] = c;
    }
    PyObject *value = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars, size);   /* made compact */
    PyMem_Free(chars);
    return value;
}

/* fast_game's answer for a game read_game read: see the section's comment. */
static PyObject *game_tokens(PyObject *text, const Text *t, Py_ssize_t pos, const Tags *tags, const Span *spans,
                             Py_ssize_t found) {
    PyObject *pairs = PyList_New(tags->count), *tokens = PyTuple_New(found), *padded = PyList_New(0);
    PyObject *places = tags->regular ? Py_NewRef(Py_None) : PyTuple_New(tags->count);
    if (pairs == NULL || tokens == NULL || padded == NULL || places == NULL)
        goto fail;
    Py_ssize_t newlines = 0, line_start = -1, counted = pos;
    for (int k = 0; k < tags->count; k++) {
        const Py_ssize_t *bounds = tags->bounds[k];
        PyObject *name = PyUnicode_Substring(text, bounds[0], bounds[1]);
        PyObject *value = name == NULL ? NULL : tags->backslash[k] ? tag_value(t, bounds[2], bounds[3])
                                                                   : PyUnicode_Substring(text, bounds[2], bounds[3]);
        PyObject *pair = value == NULL ? NULL : PyTuple_Pack(2, name, value);
        Py_XDECREF(name);
        Py_XDECREF(value);
        if (pair == NULL)
            goto fail;
        PyList_SET_ITEM(pairs, k, pair);
        if (tags->regular)
            continue;
        for (; counted < bounds[0] - 1; counted++)     /* the line ends before its '[' */
            if (char_at(t, counted) == '\n')
                newlines++, line_start = counted + 1;
        PyObject *place = Py_BuildValue("(nnnN)", bounds[0] - 1, newlines, line_start, PyBool_FromLong(tags->escaped[k]));
        if (place == NULL)
            goto fail;
        PyTuple_SET_ITEM(places, k, place);
    }
    if (tags->regular && tags->count > 1)            /* one pair a line: the last one's '[' starts its line */
        newlines = tags->count - 1, line_start = tags->bounds[tags->count - 1][0] - 1;
    for (; !tags->regular && counted < tags->end; counted++)     /* and those in the last pair's value */
        if (char_at(t, counted) == '\n')
            newlines++, line_start = counted + 1;
    Py_ssize_t tags_end = tags->end, counted_end = tags_end, previous_end = tags_end;
    Py_ssize_t total = newlines, total_start = line_start;       /* line ends since `pos`, the last one's end */
    for (Py_ssize_t k = 0; k < found; k++) {
        Py_ssize_t begin = spans[k].start, between = 0;
        newlines = 0, line_start = -1;
        for (Py_ssize_t j = counted_end; j < begin; j++)
            if (char_at(t, j) == '\n') {
                newlines++;
                line_start = j + 1;
                between += j >= previous_end;
            }
        int kind = spans[k].kind;                 /* an ESCAPE is white space: no blank line before it */
        PyObject *span = Py_BuildValue("(nninnN)", begin, spans[k].end, kind, newlines, line_start,
                                       PyBool_FromLong(kind != ESCAPE && between > 1));
        if (span == NULL)
            goto fail;
        PyTuple_SET_ITEM(tokens, k, span);
        total += newlines;
        total_start = line_start >= 0 ? line_start : total_start;
        if (spans[k].padded && add_padded(t, spans + k, total, total_start, padded) < 0)
            goto fail;
        counted_end = begin;
        previous_end = kind == ESCAPE ? previous_end : spans[k].end;
    }
    return Py_BuildValue("(NnNNN)", pairs, tags_end, tokens, padded, places);
fail:
    Py_XDECREF(pairs);
    Py_XDECREF(tokens);
    Py_XDECREF(padded);
    Py_XDECREF(places);
    return NULL;
}

PyObject *scan_fast_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 4 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "fast_game(text: str, pos: int, endpos: int, last: bool)");
        return NULL;
    }
    int last = PyObject_IsTrue(args[3]);
    if (last < 0)
        return NULL;
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), endpos = PyLong_AsSsize_t(args[2]);
    if ((pos == -1 || endpos == -1) && PyErr_Occurred())
        return NULL;
    if (pos < 0 || endpos > PyUnicode_GET_LENGTH(args[0]) || pos > endpos) {
        PyErr_SetString(PyExc_ValueError, "fast_game: positions out of the text");
        return NULL;
    }
    Text t = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), endpos};
    Tags tags;
    Spans spans;
    spans.items = spans.first, spans.found = 0, spans.size = 64;
    int read = read_game(&t, pos, last, &tags, &spans);
    PyObject *out = read < 0 ? NULL : read == 0 ? Py_NewRef(Py_None)
                  : game_tokens(args[0], &t, pos, &tags, spans.items, spans.found);
    if (spans.items != spans.first)
        PyMem_Free(spans.items);
    return out;
}
