/* ---- the common game, read at once --------------------------------------------------------
 * fast_game(text, pos, endpos) -> the tokens the scanner (grammar.PdnParser.tokens) makes of the
 * common game starting at `pos` (a '['), or None when the game there is not one:
 *   plain tag pairs, one a line (`[Name "value"]`, as grammar._PLAIN_TAGS reads them), white space,
 *   maybe one run of plain moves (grammar._PLAIN_RUN, its last item a move), white space, a result
 *   or '*', then spaces or tabs and a line end before `endpos`.
 * Returns (pairs, tags_end, moves_start, moves_end, terminator_start, terminator_end), the moves'
 * offsets -1 when there are none; every other text is left to the scanner, whose tokens for it
 * these are (tests/test_fast_read.py compares the two readings).  Included by the scanner's
 * C file: it reads runs with item_end, gap_end, run_item_end and run_space. */

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

/* The result (grammar's RESULT) ending at white space or a line end, else -1. */
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
            return after == ' ' || after == '\t' || after == '\n' ? j : -1;
        }
    }
    return -1;
}

/* [ \t\f\n]* */
static Py_ssize_t blank_end(const Text *t, Py_ssize_t i) {
    for (Py_UCS4 c = char_at(t, i); c == ' ' || c == '\t' || c == '\f' || c == '\n'; c = char_at(t, ++i))
        ;
    return i;
}

/* Whether text[start:end] is a plain run (grammar._PLAIN_RUN) whose last item is a move. */
static int plain_moves(const Text *t, Py_ssize_t start, Py_ssize_t end) {
    Text run = {t->kind, t->data, end};
    Py_ssize_t i = start;
    for (;;) {
        i = run_item_end(&run, i);
        if (i < 0)
            return 0;
        if (i == end)
            return char_at(t, end - 1) != '.';
        Py_ssize_t gap = i;
        while (run_space(char_at(&run, i)))
            i++;
        if (i == gap)
            return 0;
    }
}

static PyObject *fast_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "fast_game(text: str, pos: int, endpos: int)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), endpos = PyLong_AsSsize_t(args[2]);
    if ((pos == -1 || endpos == -1) && PyErr_Occurred())
        return NULL;
    if (pos < 0 || endpos > PyUnicode_GET_LENGTH(args[0]) || pos > endpos) {
        PyErr_SetString(PyExc_ValueError, "fast_game: positions out of the text");
        return NULL;
    }
    Text t = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), endpos};
    Py_ssize_t i = pos, bounds[32][4];          /* name start, end, value start, end */
    int count = 0;
    for (;;) {                                  /* `[Name "value"]` lines */
        if (count == 32 || char_at(&t, i) != '[')
            return Py_NewRef(Py_None);
        Py_ssize_t name = i + 1, name_end = tag_name_end(&t, name);
        if (name_end < 0 || char_at(&t, name_end) != ' ' || char_at(&t, name_end + 1) != '"')
            return Py_NewRef(Py_None);
        Py_ssize_t value = name_end + 2, j = value;
        for (Py_UCS4 c = char_at(&t, j); c != '"'; c = char_at(&t, ++j))
            if (c == '\\' || c == '\n' || c == 0)
                return Py_NewRef(Py_None);
        if (char_at(&t, j + 1) != ']')
            return Py_NewRef(Py_None);
        bounds[count][0] = name, bounds[count][1] = name_end, bounds[count][2] = value, bounds[count][3] = j;
        count++;
        i = j + 2;
        if (!(char_at(&t, i) == '\n' && char_at(&t, i + 1) == '['))
            break;
        i++;
    }
    Py_ssize_t tags_end = i, gap = i;           /* no tag may follow after TAGS' gap */
    while (char_at(&t, gap) == ' ' || char_at(&t, gap) == '\t' || char_at(&t, gap) == '\f')
        gap++;
    if (char_at(&t, gap) == '\n')
        gap++;
    while (char_at(&t, gap) == ' ' || char_at(&t, gap) == '\t' || char_at(&t, gap) == '\f')
        gap++;
    if (char_at(&t, gap) == '[' || char_at(&t, gap) == '\\')
        return Py_NewRef(Py_None);
    Py_ssize_t moves = blank_end(&t, tags_end), moves_stop = -1, term = moves, term_end;
    if (char_at(&t, moves) == '*' || (term_end = result_end(&t, moves)) < 0) {
        if (char_at(&t, moves) != '*') {        /* not a result: a run of moves (the scanner's MOVES) */
            Py_ssize_t end = item_end(&t, moves);
            for (Py_ssize_t next = end; next >= 0; next = item_end(&t, gap_end(&t, end)))
                end = next;
            if (end < 0 || !plain_moves(&t, moves, end))
                return Py_NewRef(Py_None);
            moves_stop = end;
            term = blank_end(&t, end);
        }
        if (char_at(&t, term) == '*')
            term_end = term + 1;
        else if ((term_end = result_end(&t, term)) < 0)
            return Py_NewRef(Py_None);
    }
    Py_ssize_t line_end = term_end;              /* spaces or tabs, then a line end */
    while (char_at(&t, line_end) == ' ' || char_at(&t, line_end) == '\t')
        line_end++;
    if (char_at(&t, line_end) != '\n')
        return Py_NewRef(Py_None);
    PyObject *pairs = PyList_New(count);
    if (pairs == NULL)
        return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *pair = Py_BuildValue("(NN)", PyUnicode_Substring(args[0], bounds[k][0], bounds[k][1]),
                                       PyUnicode_Substring(args[0], bounds[k][2], bounds[k][3]));
        if (pair == NULL) {
            Py_DECREF(pairs);
            return NULL;
        }
        PyList_SET_ITEM(pairs, k, pair);
    }
    return Py_BuildValue("(Nnnnnn)", pairs, tags_end, moves_stop < 0 ? (Py_ssize_t)-1 : moves, moves_stop,
                         term, term_end);
}
