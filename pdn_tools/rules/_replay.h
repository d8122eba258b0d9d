/* Shared by the run replay of the compiled core: one notated move and a run of Python elements
 * (_steps.c), Position and Move objects (_positions.c), the draw counters (_draws.c) and a run
 * kept as text (_replay.c), its plies written (_written.c) and a position looked for along it
 * (_found.c), and a main line annotated (_annotated.c). */
#ifndef PDN_TOOLS_REPLAY_H
#define PDN_TOOLS_REPLAY_H

#include "_core.h"

/* A position as the draw counter keeps it. */
typedef struct {
    u128 white, black, kings;
    int turn;                            /* 0 White, 1 Black to move */
    int count;
} Seen;

typedef struct {
    Seen *items;
    Py_ssize_t count, size;
} SeenTable;

/* The draw counters of replay's DrawTracker that the core keeps while it plays (twin:
 * pdn_tools.rules.draws.DrawTracker.update): positions
 * since the last irreversible move with their counts, the quiet count, and what reaching
 * a limit means (stop: leave the ply to DrawTracker.update, which notes the draw). */
typedef struct {
    int on;                              /* counting (the tracker has no draw yet) */
    SeenTable seen;
    Seen since;
    int since_changed, seen_changed;
    long quiet;
    long times, quiet_limit;
    int repetition_stops, quiet_stops, men_go_back;
    const unsigned char *endings;        /* draws.ending_materials, NULL when no ending */
} Counters;

/* _steps.c */
int quiet_step(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb, int *promotes);
int play_capture_step(const Rules *r, int ci, u128 *own, u128 *opp, u128 *kings, int sb, int eb,
                      Records *recs, Record *out);
PyObject *Rules_run(Rules *self, PyObject *const *args, Py_ssize_t nargs);

/* How squares are written: their numbers (on 0), else their names (text[k] of square number k). */
typedef struct {
    int on;
    const char *text[MAX_SQ + 1];
    Py_ssize_t len[MAX_SQ + 1];
} Names;

#define FEN_SIZE (16 + MAX_SQ * 6)          /* "K" + a name of up to 4 characters + "," a square, and
                                               room for the last square's text copied whole (SQUARE_TEXT) */

/* _positions.c: `like` is a position whose variant, tables and counters a new one keeps */
int read_position(const Rules *r, PyObject *position, Seen *out);
PyObject *make_position(const Rules *r, PyObject *like, const Seen *s);
PyObject *make_position_after(const Rules *r, PyObject *like, const Seen *was, const Seen *s);
PyObject *make_move(const Rules *r, const Record *rec);
int names_in(const Rules *r, PyObject *names, Names *out);

/* _draws.c */
int count_ply(Counters *c, const Seen *after, int king, int captured);
int counters_in(const Rules *r, Counters *c, PyObject *seen, PyObject *since, PyObject *quiet,
                PyObject *limits);
int counters_out(const Rules *r, PyObject *like, Counters *c, PyObject *seen, PyObject *since,
                 PyObject **since_out);

/* _replay.c: a run's items read and played (next_item, named_squares, next_move, play_item: see there) */
int next_item(const char *text, Py_ssize_t len, Py_ssize_t *pos, Py_ssize_t *end, int *squares, int *count,
              int *capture);
int named_squares(const Rules *r, int *squares, int count);
int next_move(const Rules *r, const char *text, Py_ssize_t len, Py_ssize_t *pos, Py_ssize_t *end, int *squares,
              int *count, int *capture);
int play_item(const Rules *r, int ci, u128 *own, u128 *opp, u128 *kings, const int *squares, int count,
              int capture, Records *recs, Record *rec, int *promotes);
PyObject *Rules_name_squares(Rules *self, PyObject *numbers);
PyObject *Rules_run_text(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *moves_hint(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* The digits of 0 to 99, two each. */
static const char DIGITS[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                             "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                             "8081828384858687888990919293949596979899";

/* Writes `value` (0 or more) in decimal at `at`; returns the end. */
static inline char *write_number(long value, char *at) {
    if (value < 10) {                   /* squares and most plies: no division */
        *at = (char)('0' + value);
        return at + 1;
    }
    if (value < 100) {
        memcpy(at, DIGITS + 2 * value, 2);
        return at + 2;
    }
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (count)
        *at++ = digits[--count];
    return at;
}

/* _written.c; Sections: the sections of the last FEN written, each with the pieces it shows: a ply
 * changes the side that moved, and the other only by a capture, so the other's is most often copied
 * (write_fen_again; kept[side] 0: none yet); and each square's text in a section, made at the first
 * FEN (squares 0: not yet), written while the squares' order is their numbers' (ordered). */
#define SQUARE_TEXT 8                       /* ",K" and a name of up to 4 characters, copied whole */
typedef struct {
    int kept[2];
    u128 pieces[2], kings[2];
    Py_ssize_t len[2];
    char text[2][FEN_SIZE];
    int squares, ordered;
    char square[2][MAX_IDX][SQUARE_TEXT];   /* ",N" of a man, ",KN" of a king on each square */
    uint8_t square_len[2][MAX_IDX];
} Sections;

char *write_fen(const Rules *r, const Seen *s, const Names *names, char *at);
char *write_fen_again(const Rules *r, const Seen *s, const Names *names, Sections *last, char *at);
PyObject *Rules_write_run(Rules *self, PyObject *const *args, Py_ssize_t nargs);

/* _annotated.c */
PyObject *Rules_annotate_line(Rules *self, PyObject *const *args, Py_ssize_t nargs);

/* _found.c */
PyObject *Rules_find_run(Rules *self, PyObject *const *args, Py_ssize_t nargs);

#endif
