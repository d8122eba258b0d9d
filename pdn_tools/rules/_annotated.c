/* The compiled core's annotated main line: a game's movetext played (its runs kept as text, as
 * _replay.c plays them) and written with annotate's commands after each move, wrapped into lines,
 * with no Python object made per ply. */
#include "_replay.h"
#include "../text/_scan.h"

/* ---- a main line annotated and written ---------------------------------------------------- */
/* twin: pdn_tools.commands.annotate._atoms, pdn_tools.commands.annotate._commands,
 * pdn_tools.commands.annotate._draw_counts, pdn_tools.text.writer.wrap, pdn_tools.text.writer.written_game */

enum { PIECE_RUN, PIECE_NUMBER, PIECE_NAG, PIECE_OTHER };      /* annotate._CORE_PIECES' kinds */
enum { ASK_FEN = 1, ASK_MOVES = 2, ASK_FORCED = 4, ASK_CAPTURES = 8 };   /* annotate._CORE_ASKS */

#define MAX_NAGS 64                      /* NAGs after one move the core writes; more: left to Python */

/* ASCII text, growing. */
typedef struct {
    char *data;
    Py_ssize_t len, size;
} Chars;

/* Room for `more` characters at the end of `b`: -1 (MemoryError set) when none. */
static int grow(Chars *b, Py_ssize_t more) {
    if (b->len + more <= b->size)
        return 0;
    Py_ssize_t size = b->size ? 2 * b->size : 256;
    while (size < b->len + more)
        size *= 2;
    char *data = PyMem_Realloc(b->data, (size_t)size);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->size = size;
    return 0;
}

static inline int add(Chars *b, const char *text, Py_ssize_t n) {
    if (n == 0)                         /* an empty buffer's data is NULL: no memcpy from it */
        return 0;
    if (grow(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, text, (size_t)n);
    b->len += n;
    return 0;
}

/* _atoms' state and writer.wrap's: the lines done (joined by newlines) and the line being filled
 * (at most `width` characters), a move number waiting for its move, and the NAGs and comment of
 * move `ply` still to come (`after`): the $7 it adds, the NAGs written after it, its comment. */
typedef struct {
    Chars done, line, number, atom, comment;
    Py_ssize_t lines, width;
    long ply;
    int after, forced, nag_count;
    long nags[MAX_NAGS];
    Sections fen;                        /* the last [%fen]'s sides, copied while they stay */
    PyObject *draw_notes;                /* a tuple: item N the draw commands after ply N (str or None); or NULL */
} Annotating;

static int end_line(Annotating *a) {
    if ((a->lines++ && add(&a->done, "\n", 1) < 0) || add(&a->done, a->line.data, a->line.len) < 0)
        return -1;
    a->line.len = 0;
    return 0;
}

/* One unbreakable piece, as writer.wrap takes it. */
static int wrap_atom(Annotating *a, const char *atom, Py_ssize_t n) {
    int ends_line = n > 0 && atom[n - 1] == '\n';
    while (n > 0 && atom[n - 1] == '\n')
        n--;
    Chars *line = &a->line;
    if (line->len) {
        char last = line->data[line->len - 1];
        int glued = last == '(' || (n == 1 && atom[0] == ')');
        if ((last == '-' && n > 0 && atom[0] == '-') || line->len + !glued + n > a->width) {
            if (end_line(a) < 0)
                return -1;
        } else if (!glued && add(line, " ", 1) < 0) {
            return -1;
        }
    }
    if (add(line, atom, n) < 0)
        return -1;
    return ends_line ? end_line(a) : 0;
}

/* Writes `$number` as one piece. */
static int write_nag(Annotating *a, long number) {
    char text[24];
    text[0] = '$';
    return wrap_atom(a, text, write_number(number, text + 1) - text);
}

/* The NAGs and comment of the last move, when still to come (piece()'s `if after`). */
static int flush_after(Annotating *a) {
    if (!a->after)
        return 0;
    a->after = 0;
    if (a->forced) {
        int given = 0;
        for (int i = 0; i < a->nag_count; i++)
            given |= a->nags[i] == 7;
        if (!given && write_nag(a, 7) < 0)
            return -1;
    }
    for (int i = 0; i < a->nag_count; i++)
        if (write_nag(a, a->nags[i]) < 0)
            return -1;
    a->nag_count = 0;
    return a->comment.len ? wrap_atom(a, a->comment.data, a->comment.len) : 0;
}

/* A piece other than a move: a move number (it waits for its move) or one written as it is. */
static int other_piece(Annotating *a, const char *text, Py_ssize_t n, int number) {
    if (flush_after(a) < 0)
        return -1;
    if (a->number.len) {
        if (wrap_atom(a, a->number.data, a->number.len) < 0)
            return -1;
        a->number.len = 0;
    }
    if (number)
        return add(&a->number, text, n);
    return wrap_atom(a, text, n);
}

/* A move written text[start:end], the number waiting before it glued to it; its NAGs and comment
 * are then to come. */
static int move_piece(Annotating *a, const char *text, Py_ssize_t start, Py_ssize_t end) {
    if (flush_after(a) < 0)
        return -1;
    int failed;
    if (a->number.len) {
        a->atom.len = 0;
        failed = add(&a->atom, a->number.data, a->number.len) < 0 || add(&a->atom, " ", 1) < 0
                 || add(&a->atom, text + start, end - start) < 0 || wrap_atom(a, a->atom.data, a->atom.len) < 0;
        a->number.len = 0;
    } else {
        failed = wrap_atom(a, text + start, end - start) < 0;
    }
    a->ply++;
    a->after = 1;
    a->forced = 0;
    a->comment.len = 0;
    return failed ? -1 : 0;
}

/* A run's move number text[start:end] as writer._run_number writes it, waiting for its move; 0 when
 * its word goes on with another number (MoveRun.texts would cut it elsewhere: left to Python). */
static int run_number(Annotating *a, const char *text, Py_ssize_t len, Py_ssize_t start, Py_ssize_t end) {
    for (Py_ssize_t i = end; i < len && !run_space(text[i]); i++)
        if (text[i] == '.')
            return 0;
    Py_ssize_t digits = end;
    while (digits > start && text[digits - 1] == '.')
        digits--;
    int black = end - digits >= 3;
    while (start < digits && text[start] == '0')
        start++;
    if (start == digits)                 /* '...' or '0.' */
        return other_piece(a, black ? "..." : "0.", black ? 3 : 2, 1) < 0 ? -1 : 1;
    a->atom.len = 0;
    if (add(&a->atom, text + start, digits - start) < 0 || add(&a->atom, "...", black ? 3 : 1) < 0)
        return -1;
    return other_piece(a, a->atom.data, a->atom.len, 1) < 0 ? -1 : 1;
}

/* What annotate writes of the draw counts: the quiet count's name (NULL: no count written), the
 * counters (run_text's) and whether the count ran after the last ply. */
typedef struct {
    const char *name;
    Py_ssize_t name_len;
    Counters c;
    int counting;
} Draws;

/* The comment of the ply just played (from `before` to `after`, `captured` pieces taken; none: the
 * mover had no capture, quiet_step played it): its commands as _commands and _draw_counts write
 * them, those asked in `asks`; and whether it was forced. */
static int ply_comment(const Rules *r, Annotating *a, int asks, const Names *names, Draws *draws,
                       const Seen *before, const Seen *after, int captured, Records *recs) {
    long count = 0;
    if (asks & (ASK_MOVES | ASK_FORCED)) {
        int ci = before->turn;
        u128 own = ci ? before->black : before->white, opp = ci ? before->white : before->black;
        count = captured ? legal_choices(r, ci, own, opp, before->kings, 0, recs)  /* no king-move limit: */
                         : quiet_choices(r, ci, own, opp, before->kings, 0);      /* no counter */
        if (count < 0)
            return -1;
        a->forced = (asks & ASK_FORCED) && count == 1;
    }
    int running = draws->name != NULL && draws->c.quiet > 0;
    int noted = running != draws->counting;
    PyObject *given = NULL;              /* the draw commands Python counted for this ply */
    if (a->draw_notes != NULL && a->ply < PyTuple_GET_SIZE(a->draw_notes)) {
        given = PyTuple_GET_ITEM(a->draw_notes, a->ply);
        given = given == Py_None ? NULL : given;
    }
    if (!(asks & (ASK_FEN | ASK_MOVES)) && !((asks & ASK_CAPTURES) && captured) && !noted && given == NULL)
        return 0;
    Py_ssize_t given_len = given == NULL ? 0 : PyUnicode_GET_LENGTH(given);
    Chars *comment = &a->comment;
    if (grow(comment, FEN_SIZE + 96 + draws->name_len + given_len) < 0)
        return -1;
    char *at = comment->data;
    *at++ = '{';
    if (asks & ASK_FEN) {
        at = write_fen_again(r, after, names, &a->fen, (char *)memcpy(at, "[%fen ", 6) + 6);
        at = (char *)memcpy(at, "] ", 2) + 2;
    }
    if (asks & ASK_MOVES)
        at = (char *)memcpy(write_number(count, (char *)memcpy(at, "[%moves ", 8) + 8), "] ", 2) + 2;
    if ((asks & ASK_CAPTURES) && captured)
        at = (char *)memcpy(write_number(captured, (char *)memcpy(at, "[%captured ", 11) + 11), "] ", 2) + 2;
    if (noted) {
        at = (char *)memcpy(at, running ? "[%draw start " : "[%draw end ", running ? 13 : 11) + (running ? 13 : 11);
        at = (char *)memcpy(at, draws->name, (size_t)draws->name_len) + draws->name_len;
        at = (char *)memcpy(at, "] ", 2) + 2;
        draws->counting = running;
    }
    if (given != NULL) {
        at = (char *)memcpy(at, PyUnicode_DATA(given), (size_t)given_len) + given_len;
        *at++ = ' ';
    }
    at[-1] = '}';                        /* in the last command's space */
    comment->len = at - comment->data;
    return 0;
}

/* Plays and writes a run's text; 1 done, 0 when a move or number is left to Python, -1 on error. */
static int annotate_run(const Rules *r, Annotating *a, PyObject *run, Seen *now, long last, int asks,
                        const Names *names, Draws *draws, Records *recs) {
    if (!PyUnicode_IS_ASCII(run))
        return 0;
    const char *text = (const char *)PyUnicode_DATA(run);
    Py_ssize_t len = PyUnicode_GET_LENGTH(run), pos = 0;
    for (;;) {
        Py_ssize_t end = pos;
        int squares[MAX_PATH], count = 0, capture = 0;
        int kind = next_item(text, len, &pos, &end, squares, &count, &capture);
        if (kind == 0)
            return 1;
        if (kind == 1) {
            int done = run_number(a, text, len, pos, end);
            if (done <= 0)
                return done;
            pos = end;
            continue;
        }
        if (kind != 2 || !named_squares(r, squares, count) || (count > 2 && !capture) || a->ply >= last
            || (end < len && !run_space(text[end])))
            return 0;
        int ci = now->turn, promotes = 0;
        u128 own = ci ? now->black : now->white, opp = ci ? now->white : now->black, kings = now->kings;
        int king = HAS(kings, squares[0]);
        Record rec;
        int played = play_item(r, ci, &own, &opp, &kings, squares, count, capture, recs, &rec, &promotes);
        if (played <= 0)
            return played;
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        int stop = count_ply(&draws->c, &next, king, capture);
        if (stop != 0)
            return stop < 0 ? -1 : 0;
        if (move_piece(a, text, pos, end) < 0
            || ply_comment(r, a, asks, names, draws, now, &next, capture ? rec.len : 0, recs) < 0)
            return -1;
        *now = next;
        pos = end;
    }
}

/* Writes `tags` (a list of (name, value)) as written_game writes them, a line each, every value
 * escaped (each backslash and double quote after a backslash), then the blank line after them: 1
 * done, 0 when a tag is not ASCII (Python writes the head), -1 on an error (set). */
static int write_head(PyObject *tags, Chars *out) {
    if (!PyList_Check(tags)) {
        PyErr_SetString(PyExc_TypeError, "annotate_line: the tags a list of (name, value)");
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(tags); k++) {
        PyObject *tag = PyList_GET_ITEM(tags, k);
        if (!PyTuple_Check(tag) || PyTuple_GET_SIZE(tag) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(tag, 0))
            || !PyUnicode_Check(PyTuple_GET_ITEM(tag, 1))) {
            PyErr_SetString(PyExc_TypeError, "annotate_line: the tags a list of (name, value)");
            return -1;
        }
        PyObject *name = PyTuple_GET_ITEM(tag, 0), *value = PyTuple_GET_ITEM(tag, 1);
        if (!PyUnicode_IS_ASCII(name) || !PyUnicode_IS_ASCII(value))
            return 0;
        Py_ssize_t n = PyUnicode_GET_LENGTH(name), v = PyUnicode_GET_LENGTH(value);
        if (grow(out, n + 2 * v + 6) < 0)
            return -1;
        char *at = out->data + out->len;
        const char *text = (const char *)PyUnicode_DATA(value);
        *at++ = '[';
        at = (char *)memcpy(at, PyUnicode_DATA(name), (size_t)n) + n;
        *at++ = ' ';
        *at++ = '"';
        for (Py_ssize_t i = 0; i < v; i++) {
            if (text[i] == '\\' || text[i] == '"')
                *at++ = '\\';
            *at++ = text[i];
        }
        at = (char *)memcpy(at, "\"]\n", 3) + 3;
        out->len = at - out->data;
    }
    return PyList_GET_SIZE(tags) && add(out, "\n", 1) < 0 ? -1 : 1;
}

/* annotate_line's draw_notes (a new reference): None, or a tuple of its own made before any Python code
 * runs (an __index__, a maker), so that what that code does to the list cannot reach what the core reads;
 * NULL with TypeError set unless it is (with no quiet count written: `quiet_name` None) a list of ASCII str
 * or None. */
static PyObject *draw_notes_in(PyObject *notes, PyObject *quiet_name) {
    if (notes == Py_None)
        return Py_NewRef(Py_None);
    PyObject *copy = PyList_Check(notes) && quiet_name == Py_None ? PyList_AsTuple(notes) : NULL;
    for (Py_ssize_t i = 0; copy != NULL && i < PyTuple_GET_SIZE(copy); i++) {
        PyObject *note = PyTuple_GET_ITEM(copy, i);
        if (note != Py_None && !(PyUnicode_Check(note) && PyUnicode_IS_ASCII(note)))
            Py_CLEAR(copy);
    }
    if (copy == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "annotate_line: draw_notes a list of ASCII str or None, only with "
                                         "quiet_name None");
    return copy;
}

/* annotate_line(pieces, position, last, names, asks, quiet_name, seen, since, quiet, limits, tail, width, tags,
 *               draw_notes) -> (the text, plies, whether it is the whole game's) or None
 * The main line of a game (`pieces`, a list of (text, kind): kind 0 a run of moves kept as text,
 * 1 a move number, 2 a NAG (text its number, an int), 3 any other piece written as it is) played
 * from `position` as run_text plays it, at most `last` plies, and written as annotate._atoms
 * writes it: after each move the $7 of a forced move (asks & 4), its NAGs, then its comment of
 * the commands asked: [%fen ...] (asks & 1), [%moves N] (2), [%captured N] (8), and with
 * `quiet_name` (not None) [%draw start/end quiet_name] where the quiet count (run_text's
 * counters: seen, since, quiet, limits) starts or ends; then `tail`, the pieces joined into lines
 * of at most `width` characters as writer.wrap joins them.  With `tags` (not None) and every tag
 * ASCII, the text is the whole game's: the tags as write_head writes them, the movetext, a blank line
 * (written_game's text of a game with no comment before its tags); else the movetext alone.
 * `draw_notes` (None, or a list of str or None, ASCII: item N the draw commands after ply N, as
 * annotate._draw_counts counts them) are written after the commands asked, where the core does not
 * count (quiet_name None).  Squares are numbers, or names[number].
 * None when the core leaves a move, a number or a draw to Python, when a piece, the tail or the
 * name is not ASCII (the text is written in ASCII), a NAG follows a move more than MAX_NAGS times,
 * or under a king-move limit. */
static PyObject *annotated_line(Rules *self, PyObject *const *args, PyObject *draw_notes);

PyObject *Rules_annotate_line(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 14 || !PyList_Check(args[0]) || !PyUnicode_Check(args[10])
        || (args[5] != Py_None && !PyUnicode_Check(args[5]))) {
        PyErr_SetString(PyExc_TypeError, "annotate_line(pieces: list, position, last, names, asks, quiet_name, "
                                         "seen, since, quiet, limits, tail: str, width, tags, draw_notes)");
        return NULL;
    }
    PyObject *draw_notes = draw_notes_in(args[13], args[5]);
    if (draw_notes == NULL)
        return NULL;
    PyObject *result = annotated_line(self, args, draw_notes);
    Py_DECREF(draw_notes);
    return result;
}

/* Rules_annotate_line, its draw_notes checked and copied (a tuple, or None). */
static PyObject *annotated_line(Rules *self, PyObject *const *args, PyObject *draw_notes) {
    long last = PyLong_AsLong(args[2]);
    long asks = PyErr_Occurred() ? 0 : PyLong_AsLong(args[4]);
    Py_ssize_t width = PyErr_Occurred() ? 0 : PyLong_AsSsize_t(args[11]);
    Names names;
    Seen now;
    if (PyErr_Occurred() || names_in(self, args[3], &names) < 0 || read_position(self, args[1], &now) < 0)
        return NULL;
    PyObject *tail = args[10];
    if (self->limit || !PyUnicode_IS_ASCII(tail) || (args[5] != Py_None && !PyUnicode_IS_ASCII(args[5])))
        Py_RETURN_NONE;                  /* written as ASCII alone; else Python writes */
    Annotating a;
    memset(&a, 0, sizeof a);
    a.width = width;
    a.draw_notes = draw_notes == Py_None ? NULL : draw_notes;
    Draws draws;
    memset(&draws, 0, sizeof draws);
    if (args[5] != Py_None) {
        draws.name = (const char *)PyUnicode_DATA(args[5]);
        draws.name_len = PyUnicode_GET_LENGTH(args[5]);
    }
    Records recs = {NULL, 0, 0, 0};
    Chars head = {NULL, 0, 0};
    PyObject *result = NULL;
    int whole = 0;
    int done = counters_in(self, &draws.c, args[6], args[7], args[8], args[9]) < 0 ? -1 : 1;
    draws.counting = draws.name != NULL && draws.c.quiet > 0;
    for (Py_ssize_t k = 0; done == 1 && k < PyList_GET_SIZE(args[0]); k++) {
        PyObject *pair = PyList_GET_ITEM(args[0], k);
        long kind = -1;
        if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2 && PyLong_Check(PyTuple_GET_ITEM(pair, 1)))
            kind = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        PyObject *text = kind < 0 ? NULL : PyTuple_GET_ITEM(pair, 0);
        if (kind == PIECE_NAG && text != NULL && PyLong_Check(text)) {
            int overflow;
            long number = PyLong_AsLongAndOverflow(text, &overflow);
            if (number < 0 || overflow) {           /* beyond a C long (the reader takes 4,300 digits): Python writes it */
                done = number == -1 && PyErr_Occurred() ? -1 : 0;
            } else if (!a.after) {               /* a NAG before any move: written as it is */
                char written[24];
                written[0] = '$';
                done = other_piece(&a, written, write_number(number, written + 1) - written, 0) < 0 ? -1 : 1;
            } else if (a.nag_count == MAX_NAGS) {
                done = 0;
            } else {
                a.nags[a.nag_count++] = number;
            }
        } else if (text == NULL || !PyUnicode_Check(text) || kind > PIECE_OTHER) {
            PyErr_SetString(PyExc_TypeError, "annotate_line: each piece a (text, kind), a NAG's text an int");
            done = -1;
        } else if (!PyUnicode_IS_ASCII(text)) {
            done = 0;
        } else if (kind == PIECE_RUN) {
            done = annotate_run(self, &a, text, &now, last, (int)asks, &names, &draws, &recs);
        } else {
            done = other_piece(&a, (const char *)PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text),
                               kind == PIECE_NUMBER) < 0 ? -1 : 1;
        }
    }
    if (done == 1 && flush_after(&a) == 0 && (a.number.len == 0 || wrap_atom(&a, a.number.data, a.number.len) == 0)
        && wrap_atom(&a, (const char *)PyUnicode_DATA(tail), PyUnicode_GET_LENGTH(tail)) == 0
        && (a.line.len == 0 || end_line(&a) == 0)
        && (whole = args[12] == Py_None ? 0 : write_head(args[12], &head)) >= 0) {
        Py_ssize_t size = whole ? head.len + a.done.len + 2 : a.done.len;
        PyObject *written = PyUnicode_New(size, 127);
        if (written != NULL) {
            char *at = (char *)PyUnicode_DATA(written);
            if (whole && head.len)          /* a head of no tag is empty: its data is NULL */
                at = (char *)memcpy(at, head.data, (size_t)head.len) + head.len;
            if (a.done.len)
                at = (char *)memcpy(at, a.done.data, (size_t)a.done.len) + a.done.len;
            if (whole)
                memcpy(at, "\n\n", 2);
            result = Py_BuildValue("(NlO)", written, a.ply, whole ? Py_True : Py_False);
        }
    } else if (done == 0) {
        result = Py_NewRef(Py_None);
    }
    PyMem_Free(head.data);
    PyMem_Free(a.done.data);
    PyMem_Free(a.line.data);
    PyMem_Free(a.number.data);
    PyMem_Free(a.atom.data);
    PyMem_Free(a.comment.data);
    PyMem_Free(draws.c.seen.items);
    records_free(&recs);
    return result;
}
