/* Shared by the modules of the compiled move core (_rules.c, _captures.c, _movegen.c, the run
 * replay of _replay.h) and the search (_search.c): the tables of a variant (Rules), capture
 * records and the generator functions. */
#ifndef PDN_TOOLS_CORE_H
#define PDN_TOOLS_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MAX_SQ 72
#define MAX_IDX 128
#define MAX_RAY 12
#define MAX_PATH 72
#define MAX_BITS 192
#define NO_DIR 8
#define MATERIAL_SIDE 16                /* draws.MATERIAL_SIDE: counts this high are in no ending */
#define ENDING_TABLE (MATERIAL_SIDE * MATERIAL_SIDE * MATERIAL_SIDE * MATERIAL_SIDE)
#define PIECES_KEPT 4                   /* pieces() answers kept (_positions.c) */
#define MAX_NAMED 100                   /* square numbers of one or two digits, as runs write them */

enum { LAW_FREE, LAW_COUNT, LAW_COUNT_KINGS, LAW_ITALIAN, LAW_FRISIAN, LAW_KING };

typedef struct {
    PyObject_HEAD
    int initialised;                    /* __init__ ran once (Rules_new made the tables): never again */
    int n;                              /* squares */
    int nbytes;                         /* bytes of a padded Python bitboard */
    int bulk;                           /* indices are padded bits: sets shift by direction */
    int shift[8];                       /* with bulk: index offset of one step per direction */
    u128 valid;                         /* indices of the squares */
    int8_t ray[8][MAX_IDX][MAX_RAY];    /* squares along each direction, nearest first */
    uint8_t raylen[8][MAX_IDX];
    int order[MAX_SQ];                  /* squares in the pure engine's (padded bit) order, which
                                           is the order of their indices (see Rules_init) */
    int bit_of[MAX_IDX];                /* padded bit of each square */
    int number[MAX_IDX];                /* square number of each square */
    int index_of[MAX_SQ + 1];           /* square of each square number */
    int8_t sq_of_bit[MAX_BITS];         /* square of each padded bit, else -1 */
    u128 promo[2];                      /* crowning squares of White, Black men */
    u128 jump_over[2][MAX_IDX];         /* squares a man may jump over, with a square behind */
    int man_jump[2][8], n_man_jump[2];  /* absolute directions, per colour */
    int man_step[2][8], n_man_step[2];
    int king_step[8], n_king_step;
    int king_jump[8], n_king_jump;
    int flying, land_behind, immediate, reverse, passing, men_take_kings, law, limit;
    int8_t named[MAX_NAMED];            /* square of each number written 0..99, else -1 */
    int zobrist_ready;                  /* _search.c: zobrist[] filled */
    uint64_t zobrist[4][MAX_IDX];       /* _search.c: Zobrist keys of the piece kinds by square */
    PyObject *position_like;            /* the makers (see _positions.c): a position like another,
                                           a slot maker */
    PyObject *position_pieces;          /* (turn, white, black, kings) of a position */
    PyObject *move_type;                /* Move(start, path, captured, promotes) */
    struct {                            /* _positions.c: pieces()' last answers, by a side's */
        u128 men, kings;                /* men and kings (squares), a new one in place of the */
        PyObject *answer;               /* oldest (next); the ints it was asked with */
        PyObject *side, *all_kings;
    } pieces[PIECES_KEPT];
    int next_pieces;
} Rules;

/* A complete capture: landing squares, captured squares in order, and its outcome. */
typedef struct {
    int8_t start, len, promotes, with_king;
    int8_t path[MAX_PATH];
    int8_t caps[MAX_PATH];
    u128 capm;
} Record;

/* Records' items come from the raw allocator, which needs no GIL: perft fills them with the GIL
 * let go (PyMem_Realloc there crashed CPython 3.12 and 3.13, whose allocator reads the thread
 * state).  Free them with records_free. */
typedef struct {
    Record *items;
    Py_ssize_t count, size;
    int failed;                          /* out of memory */
} Records;

static inline void records_free(Records *recs) {
    PyMem_RawFree(recs->items);
    recs->items = NULL;
    recs->count = recs->size = 0;
}

#define BIT(sq) (((u128)1) << (sq))
#define HAS(set, sq) ((int)(((set) >> (sq)) & 1))

typedef struct {
    int8_t from, to;
} Step;

static inline int popcount128(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int lowest(u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

int has_capture(const Rules *r, int ci, u128 own, u128 opp, u128 kings);
void legal_records(const Rules *r, int ci, u128 own, u128 opp, u128 kings, Records *out);
int quiet_moves_fast(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr, Step *out, int cap,
                     int count_only);
int next_counter(const Rules *r, int ctr, int from, int to, int king);
void after_capture(const Record *rec, u128 *own, u128 *opp, u128 *kings);
void drop_duplicates(Records *recs);
int to_set(const Rules *r, PyObject *value, u128 *out);          /* _positions.c, with from_set */
PyObject *from_set(const Rules *r, u128 set);
PyObject *squares_tuple(const int *table, const int8_t *squares, int len);
int counter_in(const Rules *r, long ctr);
int side_args(Rules *r, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, int *ci, u128 *own,
              u128 *opp, u128 *kings);

extern const int REVERSE[9];             /* the opposite of each direction */

static inline u128 empty_squares(const Rules *r, u128 own, u128 opp) {
    return r->valid & ~(own | opp);
}

/* With bulk indices: the set moved one step in direction `d` (squares leaving the board or
 * landing on a spare column are dropped by the masks the callers apply). */
static inline u128 step_set(const Rules *r, u128 set, int d) {
    int s = r->shift[d];
    return s >= 0 ? set << s : set >> -s;
}

/* _captures.c */
void capture_records(const Rules *r, int ci, u128 own, u128 opp, u128 kings, u128 starts,
                     Records *out);
void apply_law(const Rules *r, Records *recs, u128 kings);

/* _movegen.c */
void after_quiet(int sb, int eb, int king, int promotes, u128 *own, u128 *kings);
PyObject *Rules_quiet_moves(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Rules_perft(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Rules_choices(Rules *self, PyObject *const *args, Py_ssize_t nargs);
long legal_choices(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr, Records *recs);
long quiet_choices(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr);

/* _rules.c */
int side_counter_args(Rules *r, PyObject *const *args, Py_ssize_t nargs, int *ci, u128 *own, u128 *opp,
                      u128 *kings, int *ctr);

/* _search.c */
PyObject *Rules_zobrist(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Rules_search(Rules *self, PyObject *const *args, Py_ssize_t nargs);

/* _positions.c: a slot maker is (a class with __slots__, the member descriptors of the slots to
 * fill, in order); an object is made as object.__new__ makes it, each slot set where its member
 * descriptor says (else through the descriptor), no Python code run (the class's __init__ is not
 * called).  slot_maker_in checks one for `slots` values. */
PyObject *Rules_fen(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Rules_pieces(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *pieces_method(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern PyTypeObject RulesType;           /* _rules.c */
void forget_pieces(Rules *r);
int slot_maker_in(PyObject *maker, Py_ssize_t slots);
PyObject *make_slotted(PyObject *maker, PyObject *const *values);

#endif
