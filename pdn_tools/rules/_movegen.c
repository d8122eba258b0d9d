/* The compiled core's quiet moves, the pieces after a move, and perft. */
#include "_core.h"

#define MAX_QUIET 2048

/* ---- quiet moves ------------------------------------------------------------------------- */
/* twin: pdn_tools.rules.bitboards._quiet_entries, pdn_tools.rules.bitboards._count_quiet */

/* The king excluded by the Frisian limit on successive king moves, else -1.  A counter is
 * (square << 3) | moves made in a row by the king now on that square. */
static int limited_king(const Rules *r, int ctr, u128 men) {
    if (ctr && men && (ctr & 7) >= r->limit)
        return ctr >> 3;
    return -1;
}

/* The quiet moves of the king on `sq` appended after the `n` in `out`, each direction in turn
 * (one step, or every empty square of the ray for a flying king); returns the new count, which
 * goes on past `cap` (only the first `cap` are written, none when `count_only`). */
static int king_walks(const Rules *r, int sq, u128 empty, Step *out, int n, int cap, int count_only) {
    for (int j = 0; j < r->n_king_step; j++) {
        int d = r->king_step[j];
        int len = r->flying ? r->raylen[d][sq] : (r->raylen[d][sq] > 0);
        for (int t = 0; t < len; t++) {
            int to = r->ray[d][sq][t];
            if (!HAS(empty, to))
                break;
            if (!count_only && n < cap) {
                out[n].from = (int8_t)sq;
                out[n].to = (int8_t)to;
            }
            n++;
        }
    }
    return n;
}

/* Quiet moves in the pure engine's order; returns how many (at most `cap`). */
static int quiet_moves(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr, Step *out,
                       int cap) {
    u128 empty = empty_squares(r, own, opp);
    u128 men = own & ~kings, k = own & kings;
    int n = 0;
    if (men) {
        for (int j = 0; j < r->n_man_step[ci]; j++) {
            int d = r->man_step[ci][j];
            /* Destinations in padded-bit order, as the pure engine's shifted sets give them. */
            for (int i = 0; i < r->n; i++) {
                int to = r->order[i];
                if (!HAS(empty, to))
                    continue;
                int back = REVERSE[d];
                if (r->raylen[back][to] == 0)
                    continue;
                int from = r->ray[back][to][0];
                if (HAS(men, from) && n < cap) {
                    out[n].from = (int8_t)from;
                    out[n].to = (int8_t)to;
                    n++;
                }
            }
        }
    }
    if (k) {
        int skip = limited_king(r, ctr, men);
        for (int i = 0; i < r->n; i++) {
            int sq = r->order[i];
            if (HAS(k, sq) && sq != skip)
                n = king_walks(r, sq, empty, out, n, cap, 0);
        }
    }
    return n < cap ? n : cap;
}

/* The number of quiet moves, whole sets at a time (bulk indices). */
static int count_quiet_bulk(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr) {
    u128 empty = empty_squares(r, own, opp);
    u128 men = own & ~kings, k = own & kings;
    int n = 0;
    if (men)
        for (int j = 0; j < r->n_man_step[ci]; j++)
            n += popcount128(step_set(r, men, r->man_step[ci][j]) & empty);
    if (k) {
        int skip = limited_king(r, ctr, men);
        if (skip >= 0)
            k &= ~BIT(skip);
    }
    if (k)
        for (int j = 0; j < r->n_king_step; j++) {
            int d = r->king_step[j];
            u128 y = step_set(r, k, d) & empty;
            if (!r->flying) {
                n += popcount128(y);
                continue;
            }
            while (y) {
                n += popcount128(y);
                y = step_set(r, y, d) & empty;
            }
        }
    return n;
}

/* Quiet moves in any order (perft's): men by square, each in its step directions. */
int quiet_moves_fast(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr,
                            Step *out, int cap, int count_only) {
    u128 empty = empty_squares(r, own, opp);
    u128 men = own & ~kings, k = own & kings, m = men;
    int n = 0;
    while (m) {
        int sq = lowest(m);
        m &= m - 1;
        for (int j = 0; j < r->n_man_step[ci]; j++) {
            int d = r->man_step[ci][j];
            if (r->raylen[d][sq] && HAS(empty, r->ray[d][sq][0])) {
                if (!count_only && n < cap) {
                    out[n].from = (int8_t)sq;
                    out[n].to = r->ray[d][sq][0];
                }
                n++;
            }
        }
    }
    if (k) {
        int skip = limited_king(r, ctr, men);
        if (skip >= 0)
            k &= ~BIT(skip);
    }
    while (k) {
        int sq = lowest(k);
        k &= k - 1;
        n = king_walks(r, sq, empty, out, n, cap, count_only);
    }
    return n < cap || count_only ? n : cap;
}

int next_counter(const Rules *r, int ctr, int from, int to, int king) {
    if (!r->limit || !king)
        return 0;
    int n = (ctr && (ctr >> 3) == from) ? (ctr & 7) + 1 : 1;
    return (to << 3) | (n < 7 ? n : 7);
}

/* quiet_moves(ci, own, opp, kings, counter) -> [(from bit, to bit)] in the pure engine's order */
PyObject *Rules_quiet_moves(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci, ctr;
    u128 own, opp, kings;
    if (side_counter_args(self, args, nargs, &ci, &own, &opp, &kings, &ctr) < 0)
        return NULL;
    Step steps[MAX_QUIET];
    int n = quiet_moves(self, ci, own, opp, kings, ctr, steps, MAX_QUIET);
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = Py_BuildValue("(ii)", self->bit_of[(int)steps[i].from],
                                       self->bit_of[(int)steps[i].to]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* ---- perft (twin: pdn_tools.rules.bitboards._perft) -------------------------------------- */

#define MAX_DEPTH 64

/* Nodes above the last ply between two looks at signals: perft runs with the GIL let go, and takes it
 * back that often to hear Ctrl-C or SIGTERM (pdn's handlers end the run), as the pure perft hears them
 * at once. */
#define SIGNALS_EVERY (1 << 14)

typedef struct {
    const Rules *r;
    int keep;
    int interrupted;                     /* a signal handler raised: its exception is set */
    int countdown;                       /* nodes to the next look at signals */
    PyThreadState *released;             /* the thread state put aside while the GIL is let go */
    Records recs[MAX_DEPTH];
} Perft;

/* Whether a signal handler raised (-1, its exception set), looked at every SIGNALS_EVERY calls. */
static int perft_signals(Perft *p) {
    if (--p->countdown > 0)
        return 0;
    p->countdown = SIGNALS_EVERY;
    PyEval_RestoreThread(p->released);
    int raised = PyErr_CheckSignals() < 0;
    p->released = PyEval_SaveThread();
    p->interrupted = raised;
    return raised ? -1 : 0;
}

void after_capture(const Record *rec, u128 *own, u128 *opp, u128 *kings) {
    int end = rec->path[rec->len - 1];
    int king = HAS(*kings, rec->start);
    *own = (*own & ~BIT(rec->start)) | BIT(end);
    *opp &= ~rec->capm;
    *kings &= ~rec->capm;           /* taken first: the end may be a square taken on the way */
    if (king || rec->promotes)
        *kings = (*kings & ~BIT(rec->start)) | BIT(end);
}

/* The pieces after a quiet move from bit sb to bit eb (a king's, or a man's crowned or not). */
void after_quiet(int sb, int eb, int king, int promotes, u128 *own, u128 *kings) {
    *own ^= BIT(sb) | BIT(eb);
    if (king)
        *kings ^= BIT(sb) | BIT(eb);
    else if (promotes)
        *kings |= BIT(eb);
}

/* Drop captures with the same start, end, captured set and crowning as an earlier one. */
void drop_duplicates(Records *recs) {
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *a = &recs->items[i];
        int dup = 0;
        for (Py_ssize_t j = 0; j < kept && !dup; j++) {
            const Record *b = &recs->items[j];
            dup = a->start == b->start && a->path[a->len - 1] == b->path[b->len - 1]
                  && a->capm == b->capm && a->promotes == b->promotes;
        }
        if (!dup)
            recs->items[kept++] = *a;
    }
    recs->count = kept;
}

static long long perft_node(Perft *p, int ci, u128 own, u128 opp, u128 kings, int c_own, int c_opp,
                            int depth) {
    const Rules *r = p->r;
    if (depth > 1 && perft_signals(p) < 0)
        return -1;
    Records *recs = &p->recs[depth];
    legal_records(r, ci, own, opp, kings, recs);
    if (recs->failed)
        return -1;
    if (recs->count) {
        if (!p->keep && recs->count > 1)
            drop_duplicates(recs);
        if (depth == 1)
            return recs->count;
        long long total = 0;
        for (Py_ssize_t i = 0; i < recs->count; i++) {
            u128 o = own, q = opp, k = kings;
            after_capture(&recs->items[i], &o, &q, &k);
            long long sub = perft_node(p, ci ^ 1, q, o, k, c_opp, 0, depth - 1);
            if (sub < 0)
                return -1;
            total += sub;
        }
        return total;
    }
    if (depth == 1)
        return r->bulk ? count_quiet_bulk(r, ci, own, opp, kings, c_own)
                       : quiet_moves_fast(r, ci, own, opp, kings, c_own, NULL, 0, 1);
    Step steps[MAX_QUIET];
    int n = quiet_moves_fast(r, ci, own, opp, kings, c_own, steps, MAX_QUIET, 0);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int from = steps[i].from, to = steps[i].to;
        int king = HAS(kings, from);
        u128 k = kings;
        if (king || HAS(r->promo[ci], to))
            k = (k & ~BIT(from)) | BIT(to);
        int ctr = r->limit ? next_counter(r, c_own, from, to, king) : 0;
        long long sub = perft_node(p, ci ^ 1, opp, (own & ~BIT(from)) | BIT(to), k, c_opp, ctr,
                                   depth - 1);
        if (sub < 0)
            return -1;
        total += sub;
    }
    return total;
}

/* perft(ci, own, opp, kings, own counter, opponent's counter, depth, keep) -> leaf count */
PyObject *Rules_perft(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    if (side_args(self, args, nargs, 8, &ci, &own, &opp, &kings) < 0)
        return NULL;
    long c_own = PyLong_AsLong(args[4]), c_opp = PyLong_AsLong(args[5]);
    long depth = PyLong_AsLong(args[6]);
    int keep = PyObject_IsTrue(args[7]);
    if (PyErr_Occurred() || keep < 0)
        return NULL;
    if (depth <= 0)
        return PyLong_FromLong(1);
    if (depth >= MAX_DEPTH) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be below 64");
        return NULL;
    }
    Perft *p = PyMem_Calloc(1, sizeof(Perft));
    if (p == NULL)
        return PyErr_NoMemory();
    p->r = self;
    p->keep = keep;
    p->released = PyEval_SaveThread();
    long long nodes = perft_node(p, ci, own, opp, kings, counter_in(self, c_own), counter_in(self, c_opp),
                                 (int)depth);
    PyEval_RestoreThread(p->released);
    int interrupted = p->interrupted;
    for (int d = 0; d < MAX_DEPTH; d++)
        records_free(&p->recs[d]);
    PyMem_Free(p);
    if (nodes < 0)
        return interrupted ? NULL : PyErr_NoMemory();
    return PyLong_FromLongLong(nodes);
}

/* The legal moves of the side `ci` (no king-move counter, or the one `ctr` reads), captures with
 * the same start, end and captured set counted once; `recs` is working room.  -1 (MemoryError set)
 * when out of memory. */
long legal_choices(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr, Records *recs) {
    recs->count = 0;
    legal_records(r, ci, own, opp, kings, recs);
    long count = 0;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *a = &recs->items[i];
        int dup = 0;
        for (Py_ssize_t j = 0; j < i && !dup; j++) {
            const Record *b = &recs->items[j];
            dup = a->start == b->start && a->path[a->len - 1] == b->path[b->len - 1] && a->capm == b->capm;
        }
        count += !dup;
    }
    if (recs->failed) {
        PyErr_NoMemory();
        return -1;
    }
    return recs->count ? count : quiet_choices(r, ci, own, opp, kings, ctr);
}

/* legal_choices of a side known to have no capture: its quiet moves counted. */
long quiet_choices(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int ctr) {
    return r->bulk ? count_quiet_bulk(r, ci, own, opp, kings, ctr)
                   : quiet_moves_fast(r, ci, own, opp, kings, ctr, NULL, 0, 1);
}

/* choices(ci, own, opp, kings, counter) -> the legal moves, captures with the same start, end and
 * captured set counted once (twin: pdn_tools.rules.movegen.Position.choices). */
PyObject *Rules_choices(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    if (side_args(self, args, nargs, 5, &ci, &own, &opp, &kings) < 0)
        return NULL;
    long c_own = PyLong_AsLong(args[4]);
    if (c_own == -1 && PyErr_Occurred())
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    long count = legal_choices(self, ci, own, opp, kings, counter_in(self, c_own), &recs);
    records_free(&recs);
    return count < 0 ? NULL : PyLong_FromLong(count);
}
