/* Compiled move core: capture generation with every capture law, quiet moves and perft for
 * every variant, driven by the tables and rule switches movegen._Rules derives from a Variant.
 *
 * One generator serves all variants: the board is a set of squares in an unsigned 128-bit
 * set, with per-square rays in the eight absolute directions of movegen.  A square's index is
 * its padded bit (movegen's layout) when the board fits in 128 bits, so whole sets shift one
 * step in a direction at once ("bulk" counting, as the pure engine does); on the 12x12 board
 * (168 padded bits) it is the square number - 1 and everything goes square by square.  The
 * Python side keeps its own bitboards (padded bits); this module converts at its boundary and
 * answers in that layout, in exactly the order the pure generator produces, so both engines
 * give the same records.
 */
#include "_core.h"
#include <structmember.h>

static const int REVERSE[9] = {3, 2, 1, 0, 5, 4, 7, 6, 9};

static Record *push_record(Records *out) {
    if (out->count == out->size) {
        Py_ssize_t size = out->size ? out->size * 2 : 16;
        Record *items = PyMem_Realloc(out->items, (size_t)size * sizeof(Record));
        if (items == NULL) {
            out->failed = 1;
            return NULL;
        }
        out->items = items;
        out->size = size;
    }
    return &out->items[out->count++];
}

/* ---- capture generation (twin: pdn_tools.rules.movegen._pure_capture_records) ------------ */

typedef struct {
    const Rules *r;
    Records *out;
    int start;
    u128 opp, men_prey, promo;
    int8_t path[MAX_PATH], caps[MAX_PATH];
} Search;

static void emit(Search *s, int depth, u128 capm, int promotes, int with_king) {
    Record *rec = push_record(s->out);
    if (rec == NULL)
        return;
    rec->start = (int8_t)s->start;
    rec->len = (int8_t)depth;
    rec->promotes = (int8_t)promotes;
    rec->with_king = (int8_t)with_king;
    memcpy(rec->path, s->path, (size_t)depth);
    memcpy(rec->caps, s->caps, (size_t)depth);
    rec->capm = capm;
}

static int flying(Search *s, int sq, u128 free, u128 capm, int depth, int last, int crowned,
                  int behind);

/* Short jumps from `sq`; `dirs` are the jump directions of the piece. */
static int shortj(Search *s, int sq, const int *dirs, int ndirs, u128 prey, u128 free, u128 capm,
                  int depth, int is_king) {
    const Rules *r = s->r;
    int found = 0;
    if (depth >= MAX_PATH)
        return 0;
    for (int i = 0; i < ndirs; i++) {
        int d = dirs[i];
        if (r->raylen[d][sq] < 2)
            continue;
        int mid = r->ray[d][sq][0], land = r->ray[d][sq][1];
        if (!HAS(prey, mid) || HAS(capm, mid) || !HAS(free, land))
            continue;
        found = 1;
        u128 nfree = r->immediate ? free | BIT(mid) : free;
        u128 ncapm = capm | BIT(mid);
        s->path[depth] = (int8_t)land;
        s->caps[depth] = (int8_t)mid;
        if (is_king) {
            if (!shortj(s, land, dirs, ndirs, prey, nfree, ncapm, depth + 1, 1))
                emit(s, depth + 1, ncapm, 0, 1);
        } else if (HAS(s->promo, land) && r->passing) {
            if (!flying(s, land, nfree, ncapm, depth + 1, d, 1, 1))
                emit(s, depth + 1, ncapm, 1, 0);
        } else if (!shortj(s, land, dirs, ndirs, prey, nfree, ncapm, depth + 1, 0)) {
            emit(s, depth + 1, ncapm, HAS(s->promo, land), 0);
        }
    }
    return found;
}

/* Flying-king jumps from `sq`; going on in the last jump's own direction only from the
 * square directly behind the jumped piece (`behind`), as the pure engine does. */
static int flying(Search *s, int sq, u128 free, u128 capm, int depth, int last, int crowned,
                  int behind) {
    const Rules *r = s->r;
    int found = 0;
    int back = r->reverse ? 9 : REVERSE[last];
    if (depth >= MAX_PATH)
        return 0;
    for (int k = 0; k < r->n_king_jump; k++) {
        int d = r->king_jump[k];
        if (d == back || (d == last && !behind))
            continue;
        const int8_t *ray = r->ray[d][sq];
        int n = r->raylen[d][sq], i = 0;
        while (i < n && HAS(free, ray[i]))
            i++;
        if (i + 1 >= n)
            continue;
        int mid = ray[i];
        if (!HAS(s->opp, mid) || HAS(capm, mid))
            continue;
        u128 nfree = r->immediate ? free | BIT(mid) : free;
        i++;
        if (!HAS(nfree, ray[i]))
            continue;
        found = 1;
        u128 ncapm = capm | BIT(mid);
        s->caps[depth] = (int8_t)mid;
        int stops[MAX_RAY], nstops = 0, more = 0, first = 1;
        while (i < n && HAS(nfree, ray[i])) {
            int land = ray[i];
            s->path[depth] = (int8_t)land;
            s->caps[depth] = (int8_t)mid;
            if (flying(s, land, nfree, ncapm, depth + 1, d, crowned, first))
                more = 1;
            else if (!more)
                stops[nstops++] = land;
            if (r->land_behind)
                break;
            first = 0;
            i++;
        }
        if (!more) {
            s->caps[depth] = (int8_t)mid;
            for (int j = 0; j < nstops; j++) {
                s->path[depth] = (int8_t)stops[j];
                emit(s, depth + 1, ncapm, crowned, !crowned);
            }
        }
    }
    return found;
}

static u128 empty_squares(const Rules *r, u128 own, u128 opp) {
    return r->valid & ~(own | opp);
}

/* With bulk indices: the set moved one step in direction `d` (squares leaving the board or
 * landing on a spare column are dropped by the masks the callers apply). */
static inline u128 step_set(const Rules *r, u128 set, int d) {
    int s = r->shift[d];
    return s >= 0 ? set << s : set >> -s;
}

/* Flying kings: every square reached through empty squares in direction `d`, and the kings. */
static inline u128 reach_set(const Rules *r, u128 k, u128 empty, int d) {
    u128 reach = k, y = step_set(r, k, d) & empty;
    while (y) {
        reach |= y;
        y = step_set(r, y, d) & empty;
    }
    return reach;
}

static int has_capture_bulk(const Rules *r, int ci, u128 own, u128 opp, u128 kings) {
    u128 empty = empty_squares(r, own, opp);
    u128 men = own & ~kings, k = own & kings;
    u128 prey = r->men_take_kings ? opp : opp & ~kings;
    if (men)
        for (int i = 0; i < r->n_man_jump[ci]; i++) {
            int d = r->man_jump[ci][i];
            if (step_set(r, step_set(r, men, d) & prey, d) & empty)
                return 1;
        }
    if (k)
        for (int i = 0; i < r->n_king_jump; i++) {
            int d = r->king_jump[i];
            u128 reach = r->flying ? reach_set(r, k, empty, d) : k;
            if (step_set(r, step_set(r, reach, d) & opp, d) & empty)
                return 1;
        }
    return 0;
}

/* Every complete capture by the pieces on `starts`, no precedence law. */
static void capture_records(const Rules *r, int ci, u128 own, u128 opp, u128 kings, u128 starts,
                            Records *out) {
    Search s;
    s.r = r;
    s.out = out;
    s.opp = opp;
    s.men_prey = r->men_take_kings ? opp : opp & ~kings;
    s.promo = r->promo[ci];
    u128 free0 = empty_squares(r, own, opp);
    u128 men = own & ~kings & starts, k = own & kings & starts;
    /* In the pure engine's square order (the indices').  A man with no prey next to it (jump_over)
     * takes nothing. */
    while (men) {
        int sq = lowest(men);
        men &= men - 1;
        if (!(r->jump_over[ci][sq] & s.men_prey))
            continue;
        s.start = sq;
        shortj(&s, sq, r->man_jump[ci], r->n_man_jump[ci], s.men_prey, free0 | BIT(sq), 0, 0, 0);
    }
    while (k) {
        int sq = lowest(k);
        k &= k - 1;
        s.start = sq;
        if (r->flying)
            flying(&s, sq, free0 | BIT(sq), 0, 0, NO_DIR, 0, 1);
        else
            shortj(&s, sq, r->king_jump, r->n_king_jump, opp, free0 | BIT(sq), 0, 0, 1);
    }
}

int has_capture(const Rules *r, int ci, u128 own, u128 opp, u128 kings) {
    if (r->bulk)
        return has_capture_bulk(r, ci, own, opp, kings);
    u128 empty = empty_squares(r, own, opp);
    u128 men = own & ~kings, k = own & kings;
    u128 prey = r->men_take_kings ? opp : opp & ~kings;
    while (men) {
        int sq = lowest(men);
        men &= men - 1;
        if (!(r->jump_over[ci][sq] & prey))
            continue;
        for (int i = 0; i < r->n_man_jump[ci]; i++) {
            int d = r->man_jump[ci][i];
            if (r->raylen[d][sq] >= 2 && HAS(prey, r->ray[d][sq][0]) && HAS(empty, r->ray[d][sq][1]))
                return 1;
        }
    }
    while (k) {
        int sq = lowest(k);
        k &= k - 1;
        for (int j = 0; j < r->n_king_jump; j++) {
            int d = r->king_jump[j];
            const int8_t *ray = r->ray[d][sq];
            int n = r->raylen[d][sq], i = 0;
            if (r->flying)
                while (i < n && HAS(empty, ray[i]))
                    i++;
            if (i + 1 < n && HAS(opp, ray[i]) && HAS(empty, ray[i + 1]))
                return 1;
        }
    }
    return 0;
}

/* ---- precedence laws (twin: pdn_tools.rules.laws.lawful) --------------------------------- */

typedef struct {
    int64_t a, b, c, d;
} Key;

static Key law_key(const Rules *r, const Record *rec, u128 kings) {
    Key key = {rec->len, 0, 0, 0};
    int nk = popcount128(rec->capm & kings);
    switch (r->law) {
    case LAW_COUNT_KINGS:
        key.b = nk;
        break;
    case LAW_FRISIAN:
        key.a = (int64_t)(rec->len + nk) * 64 - nk;
        key.b = rec->with_king;
        break;
    case LAW_ITALIAN: {
        int64_t order = 0;
        for (int i = 0; i < rec->len; i++)
            if (HAS(kings, rec->caps[i]))
                order += (int64_t)1 << (31 - i);
        key.b = rec->with_king;
        key.c = nk;
        key.d = order;
        break;
    }
    default:
        break;
    }
    return key;
}

static int key_cmp(Key x, Key y) {
    if (x.a != y.a) return x.a < y.a ? -1 : 1;
    if (x.b != y.b) return x.b < y.b ? -1 : 1;
    if (x.c != y.c) return x.c < y.c ? -1 : 1;
    if (x.d != y.d) return x.d < y.d ? -1 : 1;
    return 0;
}

/* Keep, in order, the records the law allows. */
static void apply_law(const Rules *r, Records *recs, u128 kings) {
    Py_ssize_t n = recs->count, kept = 0;
    if (r->law == LAW_FREE || n < 2)
        return;
    if (r->law == LAW_KING) {
        int any = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            any |= recs->items[i].with_king;
        if (!any)
            return;
        for (Py_ssize_t i = 0; i < n; i++)
            if (recs->items[i].with_king)
                recs->items[kept++] = recs->items[i];
        recs->count = kept;
        return;
    }
    Key best = law_key(r, &recs->items[0], kings);
    for (Py_ssize_t i = 1; i < n; i++) {
        Key key = law_key(r, &recs->items[i], kings);
        if (key_cmp(key, best) > 0)
            best = key;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (key_cmp(law_key(r, &recs->items[i], kings), best) == 0)
            recs->items[kept++] = recs->items[i];
    recs->count = kept;
}

/* Lawful captures (none when there is no capture). */
void legal_records(const Rules *r, int ci, u128 own, u128 opp, u128 kings, Records *out) {
    out->count = 0;
    if (!has_capture(r, ci, own, opp, kings))
        return;
    capture_records(r, ci, own, opp, kings, ~(u128)0, out);
    apply_law(r, out, kings);
}

/* ---- quiet moves ------------------------------------------------------------------------- */
/* twin: pdn_tools.rules.movegen._quiet_entries, pdn_tools.rules.movegen._count_quiet */

/* The king excluded by the Frisian limit on successive king moves, else -1.  A counter is
 * (square << 3) | moves made in a row by the king now on that square. */
static int limited_king(const Rules *r, int ctr, u128 men) {
    if (ctr && men && (ctr & 7) >= r->limit)
        return ctr >> 3;
    return -1;
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
            if (!HAS(k, sq) || sq == skip)
                continue;
            for (int j = 0; j < r->n_king_step; j++) {
                int d = r->king_step[j];
                int len = r->flying ? r->raylen[d][sq] : (r->raylen[d][sq] > 0);
                for (int t = 0; t < len; t++) {
                    int to = r->ray[d][sq][t];
                    if (!HAS(empty, to))
                        break;
                    if (n < cap) {
                        out[n].from = (int8_t)sq;
                        out[n].to = (int8_t)to;
                        n++;
                    }
                }
            }
        }
    }
    return n;
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
    }
    return n < cap || count_only ? n : cap;
}

int next_counter(const Rules *r, int ctr, int from, int to, int king) {
    if (!r->limit || !king)
        return 0;
    int n = (ctr && (ctr >> 3) == from) ? (ctr & 7) + 1 : 1;
    return (to << 3) | (n < 7 ? n : 7);
}

/* ---- perft (twin: pdn_tools.rules.movegen._perft) ---------------------------------------- */

#define MAX_QUIET 2048
#define MAX_DEPTH 64

typedef struct {
    const Rules *r;
    int keep;
    Records recs[MAX_DEPTH];
} Perft;

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
static void after_quiet(int sb, int eb, int king, int promotes, u128 *own, u128 *kings) {
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

/* ---- conversion at the Python boundary ------------------------------------------------- */

int to_set(const Rules *r, PyObject *value, u128 *out) {
    unsigned char buf[MAX_BITS / 8];
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)value, buf, (size_t)r->nbytes, 1, 0, 1) < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, buf, (size_t)r->nbytes, 1, 0) < 0)
        return -1;
#endif
    u128 set = 0;
    for (int i = 0; i < r->nbytes; i++) {
        unsigned b = buf[i];
        while (b) {
            int bit = i * 8 + __builtin_ctz(b);
            b &= b - 1;
            int sq = r->sq_of_bit[bit];
            if (sq < 0) {
                PyErr_SetString(PyExc_ValueError, "a bitboard holds a bit that is not a square");
                return -1;
            }
            set |= BIT(sq);
        }
    }
    *out = set;
    return 0;
}

static PyObject *from_set(const Rules *r, u128 set) {
    unsigned char buf[MAX_BITS / 8];
    memset(buf, 0, sizeof buf);
    while (set) {
        int sq = lowest(set);
        set &= set - 1;
        int bit = r->bit_of[sq];
        buf[bit >> 3] |= (unsigned char)(1u << (bit & 7));
    }
    return _PyLong_FromByteArray(buf, (size_t)r->nbytes, 1, 0);
}

/* A Frisian counter between the padded layout (bit << 3 | n) and squares (sq << 3 | n). */
int counter_in(const Rules *r, long ctr) {
    if (ctr <= 0 || (ctr >> 3) >= MAX_BITS)
        return 0;
    int sq = r->sq_of_bit[ctr >> 3];
    return sq < 0 ? 0 : (sq << 3) | (int)(ctr & 7);
}

static PyObject *record_tuple(const Rules *r, const Record *rec) {
    PyObject *path = PyTuple_New(rec->len), *caps = PyTuple_New(rec->len);
    if (path == NULL || caps == NULL) {
        Py_XDECREF(path);
        Py_XDECREF(caps);
        return NULL;
    }
    for (int i = 0; i < rec->len; i++) {
        PyTuple_SET_ITEM(path, i, PyLong_FromLong(r->bit_of[(int)rec->path[i]]));
        PyTuple_SET_ITEM(caps, i, PyLong_FromLong(r->bit_of[(int)rec->caps[i]]));
    }
    PyObject *capm = from_set(r, rec->capm);
    if (capm == NULL) {
        Py_DECREF(path);
        Py_DECREF(caps);
        return NULL;
    }
    return Py_BuildValue("(iNNOON)", r->bit_of[(int)rec->start], path, caps,
                         rec->promotes ? Py_True : Py_False, rec->with_king ? Py_True : Py_False,
                         capm);
}

static PyObject *records_list(const Rules *r, const Records *recs) {
    PyObject *list = PyList_New(recs->count);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        PyObject *item = record_tuple(r, &recs->items[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

int side_args(Rules *r, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, int *ci,
                     u128 *own, u128 *opp, u128 *kings) {
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "expected %zd arguments, got %zd", want, nargs);
        return -1;
    }
    long colour = PyLong_AsLong(args[0]);
    if (colour == -1 && PyErr_Occurred())
        return -1;
    if (colour != 0 && colour != 1) {
        PyErr_SetString(PyExc_ValueError, "colour index must be 0 or 1");
        return -1;
    }
    *ci = (int)colour;
    if (to_set(r, args[1], own) < 0 || to_set(r, args[2], opp) < 0 || to_set(r, args[3], kings) < 0)
        return -1;
    return 0;
}

/* ---- the Rules type (twin: pdn_tools.rules.movegen._Rules) ------------------------------- */

/* Reads a sequence of at most `limit` integers in 0..bound-1 into `out`; `what` names one in errors. */
static int read_ints(PyObject *seq, long bound, int *out, Py_ssize_t *count, Py_ssize_t limit,
                     const char *what) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of integers");
    if (fast == NULL)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many values: a %s list holds at most %zd", what, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v < 0 || v >= bound) {
            Py_DECREF(fast);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "a %s is out of range 0..%ld", what, bound - 1);
            return -1;
        }
        out[i] = (int)v;
    }
    *count = len;
    Py_DECREF(fast);
    return 0;
}

static int read_dirs(PyObject *seq, int *dirs, int *count, int limit) {
    Py_ssize_t n;
    if (read_ints(seq, 8, dirs, &n, limit, "direction") < 0)
        return -1;
    *count = (int)n;
    return 0;
}

static int read_squares(PyObject *seq, int n, int *out, Py_ssize_t *count, Py_ssize_t limit) {
    return read_ints(seq, n, out, count, limit, "square index");
}

/* Rules(bits, rays, promo, man_jumps, man_steps, king_steps, king_jumps, switches)
 *   bits: padded bit of each square (dense index = square number - 1)
 *   rays: 8 directions x squares -> dense squares along the ray, nearest first
 *   promo: (White's crowning squares, Black's) as dense indices
 *   man_jumps, man_steps: per colour, absolute directions in the pure engine's order
 *   switches: (flying, land_behind, immediate, reverse, passing, men_take_kings, law, limit) */
static int Rules_init(Rules *self, PyObject *args, PyObject *kwds) {
    PyObject *bits, *rays, *promo, *man_jumps, *man_steps, *king_steps, *king_jumps;
    int sw[8];
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Rules takes no keyword arguments");
        return -1;
    }
    memset(self->named, -1, sizeof self->named);
    if (!PyArg_ParseTuple(args, "OOOOOOO(iiiiiiii)", &bits, &rays, &promo, &man_jumps, &man_steps,
                          &king_steps, &king_jumps, &sw[0], &sw[1], &sw[2], &sw[3], &sw[4], &sw[5],
                          &sw[6], &sw[7]))
        return -1;
    Py_ssize_t n = PySequence_Size(bits);
    if (n < 1 || n > MAX_SQ) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a board has 1 to 72 squares");
        return -1;
    }
    self->n = (int)n;
    int tmp[MAX_SQ], dense_bit[MAX_SQ], idx[MAX_SQ];
    Py_ssize_t count;
    if (read_squares(bits, MAX_BITS, dense_bit, &count, MAX_SQ) < 0)
        return -1;
    int top = 0;
    for (int sq = 0; sq < self->n; sq++)
        if (dense_bit[sq] > top)
            top = dense_bit[sq];
    self->bulk = top < MAX_IDX;
    memset(self->sq_of_bit, -1, sizeof self->sq_of_bit);
    self->valid = 0;
    for (int sq = 0; sq < self->n; sq++) {
        idx[sq] = self->bulk ? dense_bit[sq] : sq;
        self->bit_of[idx[sq]] = dense_bit[sq];
        self->number[idx[sq]] = sq + 1;
        self->index_of[sq + 1] = idx[sq];
        self->sq_of_bit[dense_bit[sq]] = (int8_t)idx[sq];
        self->valid |= BIT(idx[sq]);
    }
    self->nbytes = top / 8 + 1;
    int k = 0;
    for (int bit = 0; bit <= top; bit++)
        if (self->sq_of_bit[bit] >= 0)
            self->order[k++] = self->sq_of_bit[bit];
    for (int i = 1; i < k; i++)
        if (self->order[i] < self->order[i - 1]) {    /* indices are bits, or squares by bit */
            PyErr_SetString(PyExc_ValueError, "a board of more than 128 bits gives its squares by bit");
            return -1;
        }
    if (PySequence_Size(rays) != 8) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "rays must have 8 directions");
        return -1;
    }
    for (int d = 0; d < 8; d++) {
        PyObject *per_square = PySequence_GetItem(rays, d);
        if (per_square == NULL)
            return -1;
        if (PySequence_Size(per_square) != n) {
            Py_DECREF(per_square);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a ray table must cover every square");
            return -1;
        }
        self->shift[d] = 0;
        for (int sq = 0; sq < self->n; sq++) {
            PyObject *ray = PySequence_GetItem(per_square, sq);
            int failed = ray == NULL || read_squares(ray, self->n, tmp, &count, MAX_RAY) < 0;
            Py_XDECREF(ray);
            if (failed) {
                Py_DECREF(per_square);
                return -1;
            }
            self->raylen[d][idx[sq]] = (uint8_t)count;
            for (Py_ssize_t i = 0; i < count; i++)
                self->ray[d][idx[sq]][i] = (int8_t)idx[tmp[i]];
            if (count)
                self->shift[d] = idx[tmp[0]] - idx[sq];
        }
        Py_DECREF(per_square);
    }
    for (int ci = 0; ci < 2; ci++) {
        PyObject *squares = PySequence_GetItem(promo, ci);
        int failed = squares == NULL || read_squares(squares, self->n, tmp, &count, MAX_SQ) < 0;
        Py_XDECREF(squares);
        if (failed)
            return -1;
        self->promo[ci] = 0;
        for (Py_ssize_t i = 0; i < count; i++)
            self->promo[ci] |= BIT(idx[tmp[i]]);
        PyObject *jumps = PySequence_GetItem(man_jumps, ci);
        failed = jumps == NULL || read_dirs(jumps, self->man_jump[ci], &self->n_man_jump[ci], 8) < 0;
        Py_XDECREF(jumps);
        if (failed)
            return -1;
        PyObject *steps = PySequence_GetItem(man_steps, ci);
        failed = steps == NULL || read_dirs(steps, self->man_step[ci], &self->n_man_step[ci], 8) < 0;
        Py_XDECREF(steps);
        if (failed)
            return -1;
    }
    for (int ci = 0; ci < 2; ci++)
        for (int i = 0; i < self->n; i++) {
            int sq = self->order[i];
            self->jump_over[ci][sq] = 0;
            for (int i = 0; i < self->n_man_jump[ci]; i++) {
                int d = self->man_jump[ci][i];
                if (self->raylen[d][sq] >= 2)
                    self->jump_over[ci][sq] |= BIT(self->ray[d][sq][0]);
            }
        }
    if (read_dirs(king_steps, self->king_step, &self->n_king_step, 8) < 0
        || read_dirs(king_jumps, self->king_jump, &self->n_king_jump, 8) < 0)
        return -1;
    self->flying = sw[0];
    self->land_behind = sw[1];
    self->immediate = sw[2];
    self->reverse = sw[3];
    self->passing = sw[4];
    self->men_take_kings = sw[5];
    self->law = sw[6];
    self->limit = sw[7];
    if (self->law < LAW_FREE || self->law > LAW_KING) {
        PyErr_SetString(PyExc_ValueError, "unknown capture law");
        return -1;
    }
    return 0;
}

static PyObject *Rules_has_capture(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    if (side_args(self, args, nargs, 4, &ci, &own, &opp, &kings) < 0)
        return NULL;
    return PyBool_FromLong(has_capture(self, ci, own, opp, kings));
}

/* The arguments (ci, own, opp, kings, counter) of a side and its king-move counter, the counter
 * in squares (counter_in). */
static int side_counter_args(Rules *r, PyObject *const *args, Py_ssize_t nargs, int *ci, u128 *own,
                             u128 *opp, u128 *kings, int *ctr) {
    if (side_args(r, args, nargs, 5, ci, own, opp, kings) < 0)
        return -1;
    long value = PyLong_AsLong(args[4]);
    if (value == -1 && PyErr_Occurred())
        return -1;
    *ctr = counter_in(r, value);
    return 0;
}

/* has_move(ci, own, opp, kings, counter) -> whether the side has a capture or a quiet move */
static PyObject *Rules_has_move(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci, ctr;
    u128 own, opp, kings;
    if (side_counter_args(self, args, nargs, &ci, &own, &opp, &kings, &ctr) < 0)
        return NULL;
    return PyBool_FromLong(has_capture(self, ci, own, opp, kings)
                           || quiet_moves_fast(self, ci, own, opp, kings, ctr, NULL, 0, 1) > 0);
}

/* capture_records(ci, own, opp, kings, starts, law) -> records in the pure engine's form */
static PyObject *Rules_capture_records(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings, starts = ~(u128)0;
    if (side_args(self, args, nargs, 6, &ci, &own, &opp, &kings) < 0)
        return NULL;
    if (args[4] != Py_None && to_set(self, args[4], &starts) < 0)
        return NULL;
    int law = PyObject_IsTrue(args[5]);
    if (law < 0)
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    capture_records(self, ci, own, opp, kings, starts, &recs);
    if (law && !recs.failed)
        apply_law(self, &recs, kings);
    PyObject *result = recs.failed ? PyErr_NoMemory() : records_list(self, &recs);
    PyMem_Free(recs.items);
    return result;
}

/* legal_records(ci, own, opp, kings) -> lawful captures, [] when none */
static PyObject *Rules_legal_records(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    if (side_args(self, args, nargs, 4, &ci, &own, &opp, &kings) < 0)
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    legal_records(self, ci, own, opp, kings, &recs);
    PyObject *result = recs.failed ? PyErr_NoMemory() : records_list(self, &recs);
    PyMem_Free(recs.items);
    return result;
}

/* quiet_moves(ci, own, opp, kings, counter) -> [(from bit, to bit)] in the pure engine's order */
static PyObject *Rules_quiet_moves(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
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

/* perft(ci, own, opp, kings, own counter, opponent's counter, depth, keep) -> leaf count */
static PyObject *Rules_perft(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
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
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    nodes = perft_node(p, ci, own, opp, kings, counter_in(self, c_own), counter_in(self, c_opp),
                       (int)depth);
    Py_END_ALLOW_THREADS
    for (int d = 0; d < MAX_DEPTH; d++)
        PyMem_Free(p->recs[d].items);
    PyMem_Free(p);
    if (nodes < 0)
        return PyErr_NoMemory();
    return PyLong_FromLongLong(nodes);
}

/* ---- one notated move -------------------------------------------------------------------- */
/* twin: pdn_tools.rules.steps.quiet_step, pdn_tools.rules.steps.capture_step */

/* The quiet step from `sb` to `eb` if the piece there may make it (no Frisian limit). */
static int quiet_step(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb,
                      int *promotes) {
    u128 empty = empty_squares(r, own, opp);
    if (!HAS(own, sb) || !HAS(empty, eb))
        return 0;
    int found = 0;
    if (HAS(kings, sb)) {
        for (int j = 0; j < r->n_king_step && !found; j++) {
            int d = r->king_step[j];
            int len = r->flying ? r->raylen[d][sb] : (r->raylen[d][sb] > 0);
            for (int t = 0; t < len && HAS(empty, r->ray[d][sb][t]); t++)
                if (r->ray[d][sb][t] == eb) {
                    found = 1;
                    break;
                }
        }
        *promotes = 0;
    } else {
        for (int j = 0; j < r->n_man_step[ci] && !found; j++) {
            int d = r->man_step[ci][j];
            found = r->raylen[d][sb] && r->ray[d][sb][0] == eb;
        }
        *promotes = HAS(r->promo[ci], eb);
    }
    return found && !has_capture(r, ci, own, opp, kings);
}

/* A man's single jump from `sb` to `eb` with no jump to follow and no other jump from `sb`
 * (which could come back to `eb` over other pieces), as steps._single_jump decides it (1, with the jumped square in *mid), else 0: the generator decides. */
static int single_jump(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb,
                       int *mid) {
    int d = -1;
    for (int j = 0; j < r->n_man_jump[ci] && d < 0; j++) {
        int dj = r->man_jump[ci][j];
        if (r->raylen[dj][sb] >= 2 && r->ray[dj][sb][1] == eb)
            d = dj;
    }
    if (d < 0)
        return 0;
    int m = r->ray[d][sb][0];
    u128 prey = r->men_take_kings ? opp : opp & ~kings;
    u128 free = empty_squares(r, own, opp) | BIT(sb) | (r->immediate ? BIT(m) : 0);
    if (!HAS(prey, m) || !HAS(free, eb))
        return 0;
    for (int j = 0; j < r->n_man_jump[ci]; j++) {
        int dj = r->man_jump[ci][j];
        if (r->raylen[dj][eb] < 2)
            continue;
        int over = r->ray[dj][eb][0], land = r->ray[dj][eb][1];
        if (HAS(prey, over) && over != m && HAS(free, land))
            return 0;
    }
    for (int j = 0; j < r->n_man_jump[ci]; j++) {     /* another first jump may come back to eb */
        int dj = r->man_jump[ci][j];
        if (dj == d || r->raylen[dj][sb] < 2)
            continue;
        int over = r->ray[dj][sb][0], land = r->ray[dj][sb][1];
        if (HAS(prey, over) && HAS(free, land))
            return 0;
    }
    *mid = m;
    return 1;
}

/* The one lawful capture from `sb` to `eb` into *out (1), else 0: none, or several taking
 * different pieces. */
static int capture_step(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb,
                        Records *recs, Record *out) {
    if (!HAS(own, sb))
        return 0;
    recs->count = 0;
    if (r->law == LAW_FREE) {
        int mid;
        if (!HAS(kings, sb) && !(r->passing && HAS(r->promo[ci], eb))
            && single_jump(r, ci, own, opp, kings, sb, eb, &mid)) {
            out->start = (int8_t)sb;
            out->len = 1;
            out->path[0] = (int8_t)eb;
            out->caps[0] = (int8_t)mid;
            out->promotes = (int8_t)HAS(r->promo[ci], eb);
            out->with_king = 0;
            out->capm = BIT(mid);
            return 1;
        }
        capture_records(r, ci, own, opp, kings, BIT(sb), recs);
    } else {
        legal_records(r, ci, own, opp, kings, recs);
    }
    const Record *first = NULL;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *rec = &recs->items[i];
        if (rec->start != sb || rec->path[rec->len - 1] != eb)
            continue;
        if (first == NULL)
            first = rec;
        else if (rec->capm != first->capm)
            return 0;
    }
    if (first == NULL)
        return 0;
    *out = *first;
    return 1;
}

/* capture_step, then its effect on the pieces (own, opp, kings updated): 1 when played (*out
 * holds the capture), 0 when it leaves the move to the caller, -1 out of memory (error set). */
static int play_capture_step(const Rules *r, int ci, u128 *own, u128 *opp, u128 *kings, int sb, int eb,
                             Records *recs, Record *out) {
    int found = capture_step(r, ci, *own, *opp, *kings, sb, eb, recs, out);
    if (recs->failed) {
        PyErr_NoMemory();
        return -1;
    }
    if (found)
        after_capture(out, own, opp, kings);
    return found;
}

/* ---- a run of the main line -------------------------------------------------------------- */
/* twin: pdn_tools.rules.steps.run, pdn_tools.play.replay._Line.follow */

/* The square number of a square text from the replayer's cache, else 0 (not cached yet, or
 * not a square): the caller then resolves the move itself. */
static int known_square(PyObject *known, PyObject *text) {
    PyObject *number = PyDict_GetItemWithError(known, text);
    if (number == NULL || !PyLong_Check(number))
        return 0;
    long n = PyLong_AsLong(number);
    return n > 0 && n < 1000 ? (int)n : 0;
}

/* Positions and Moves are built here as their classes would build them: both are slotted
 * classes (Position's __slots__, a slots=True frozen dataclass), so each field has a fixed
 * offset in the object, found by name in the type's member table. */
static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    for (PyTypeObject *t = type; t != NULL; t = t->tp_base)
        for (PyMemberDef *m = t->tp_members; m != NULL && m->name != NULL; m++)
            if (m->type == T_OBJECT_EX && strcmp(m->name, name) == 0)
                return m->offset;
    return -1;
}

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

enum { P_VARIANT, P_TURN, P_RL, P_WHITE, P_BLACK, P_KINGS, P_CTR, P_FIELDS };
static const char *const POSITION_FIELDS[P_FIELDS] = {"variant", "turn", "_rl", "_white", "_black",
                                                      "_kings", "_ctr"};
enum { M_START, M_PATH, M_CAPTURED, M_PROMOTES, M_FIELDS };
static const char *const MOVE_FIELDS[M_FIELDS] = {"start", "path", "captured", "promotes"};

/* The offsets of `names` in `type`; -1 with TypeError when one is missing. */
static int layout(PyTypeObject *type, const char *const *names, int count, Py_ssize_t *offsets) {
    for (int i = 0; i < count; i++) {
        offsets[i] = slot_offset(type, names[i]);
        if (offsets[i] < 0) {
            PyErr_Format(PyExc_TypeError, "run: %s has no slot %s", type->tp_name, names[i]);
            return -1;
        }
    }
    return 0;
}

/* A new object of `type` holding `values` (new references, stolen) in the slots at `offsets`. */
static PyObject *slotted(PyTypeObject *type, const Py_ssize_t *offsets, PyObject **values, int count) {
    for (int i = 0; i < count; i++)
        if (values[i] == NULL) {
            for (int j = 0; j < count; j++)
                Py_XDECREF(values[j]);
            return NULL;
        }
    PyObject *obj = type->tp_alloc(type, 0);
    if (obj == NULL) {
        for (int j = 0; j < count; j++)
            Py_DECREF(values[j]);
        return NULL;
    }
    for (int i = 0; i < count; i++)
        SLOT(obj, offsets[i]) = values[i];
    return obj;
}

static PyObject *numbers_tuple(const Rules *r, const int8_t *squares, int len) {
    PyObject *tuple = PyTuple_New(len);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < len; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(r->number[(int)squares[i]]));
    return tuple;
}

/* run(elements, index, position, known, kinds, quiet_move_of, move_type)
 *   -> (index of the first element left to the caller, [(element, move, after, king moved)])
 * Plays the main line from elements[index] while each element is a move number, comment or NAG
 * (skipped) or a notated move of two cached squares that steps.quiet_step / capture_step
 * would play, with the same answers.  kinds = (notated move type, skipped types...);
 * known maps square texts to numbers (the replayer's cache); quiet_move_of maps
 * from bit << 9 | to bit << 1 | promotes to the precomputed quiet Move; a capture's Move is
 * made of `move_type`.  Positions after are made of the type of `position`. */
static PyObject *Rules_run(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    static PyObject *squares_name = NULL, *capture_name = NULL, *turns[2] = {NULL, NULL};
    if (squares_name == NULL) {
        squares_name = PyUnicode_InternFromString("squares");
        capture_name = PyUnicode_InternFromString("capture");
        turns[0] = PyUnicode_InternFromString("W");
        turns[1] = PyUnicode_InternFromString("B");
        if (squares_name == NULL || capture_name == NULL || turns[0] == NULL || turns[1] == NULL)
            return NULL;
    }
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "run takes 7 arguments");
        return NULL;
    }
    PyObject *elements = args[0], *position = args[2], *known = args[3], *kinds = args[4];
    PyObject *quiet = args[5], *move_type = args[6];
    if (!PyList_Check(elements) || !PyDict_Check(known) || !PyTuple_Check(kinds)
        || PyTuple_GET_SIZE(kinds) < 1 || !PyDict_Check(quiet) || !PyType_Check(move_type)) {
        PyErr_SetString(PyExc_TypeError, "run: bad argument types");
        return NULL;
    }
    Py_ssize_t index = PyLong_AsSsize_t(args[1]);
    if (index == -1 && PyErr_Occurred())
        return NULL;
    PyTypeObject *ptype = Py_TYPE(position), *mtype = (PyTypeObject *)move_type;
    Py_ssize_t at[P_FIELDS], mat[M_FIELDS];
    if (layout(ptype, POSITION_FIELDS, P_FIELDS, at) < 0 || layout(mtype, MOVE_FIELDS, M_FIELDS, mat) < 0)
        return NULL;
    for (int i = 0; i < P_FIELDS; i++)
        if (SLOT(position, at[i]) == NULL) {
            PyErr_SetString(PyExc_TypeError, "run: the position is not complete");
            return NULL;
        }
    int ci = PyUnicode_Check(SLOT(position, at[P_TURN]))
             && PyUnicode_CompareWithASCIIString(SLOT(position, at[P_TURN]), "B") == 0;
    u128 own, opp, kings;
    if (to_set(self, SLOT(position, at[ci ? P_BLACK : P_WHITE]), &own) < 0
        || to_set(self, SLOT(position, at[ci ? P_WHITE : P_BLACK]), &opp) < 0
        || to_set(self, SLOT(position, at[P_KINGS]), &kings) < 0)
        return NULL;
    PyTypeObject *notated = (PyTypeObject *)PyTuple_GET_ITEM(kinds, 0);
    PyObject *plies = PyList_New(0);
    if (plies == NULL)
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    Py_ssize_t n = PyList_GET_SIZE(elements);
    for (; index < n; index++) {
        PyObject *element = PyList_GET_ITEM(elements, index);
        PyTypeObject *kind = Py_TYPE(element);
        if (kind != notated) {
            int skipped = 0;
            for (Py_ssize_t k = 1; k < PyTuple_GET_SIZE(kinds) && !skipped; k++)
                skipped = (PyObject *)kind == PyTuple_GET_ITEM(kinds, k);
            if (skipped)
                continue;
            break;
        }
        PyObject *squares = PyObject_GetAttr(element, squares_name);
        if (squares == NULL)
            goto error;
        int start = 0, end = 0;
        if (PyTuple_Check(squares) && PyTuple_GET_SIZE(squares) == 2) {
            start = known_square(known, PyTuple_GET_ITEM(squares, 0));
            end = known_square(known, PyTuple_GET_ITEM(squares, 1));
        }
        Py_DECREF(squares);
        if (PyErr_Occurred())
            goto error;
        if (start <= 0 || end <= 0 || start > self->n || end > self->n)
            break;
        PyObject *flag = PyObject_GetAttr(element, capture_name);
        if (flag == NULL)
            goto error;
        int capture = PyObject_IsTrue(flag);
        Py_DECREF(flag);
        if (capture < 0)
            goto error;
        int sb = self->index_of[start], eb = self->index_of[end];
        int king = HAS(kings, sb);
        PyObject *move;
        if (!capture) {
            int promotes;
            if (!quiet_step(self, ci, own, opp, kings, sb, eb, &promotes))
                break;
            PyObject *key = PyLong_FromLong(self->bit_of[sb] << 9 | self->bit_of[eb] << 1 | promotes);
            if (key == NULL)
                goto error;
            move = PyDict_GetItemWithError(quiet, key);
            Py_DECREF(key);
            if (move == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_KeyError, "run: no precomputed quiet move");
                goto error;
            }
            Py_INCREF(move);
            after_quiet(sb, eb, king, promotes, &own, &kings);
        } else {
            Record rec;
            int played = play_capture_step(self, ci, &own, &opp, &kings, sb, eb, &recs, &rec);
            if (played < 0)
                goto error;
            if (!played)
                break;
            PyObject *fields[M_FIELDS] = {PyLong_FromLong(start), numbers_tuple(self, rec.path, rec.len),
                                          numbers_tuple(self, rec.caps, rec.len),
                                          Py_NewRef(rec.promotes ? Py_True : Py_False)};
            move = slotted(mtype, mat, fields, M_FIELDS);
            if (move == NULL)
                goto error;
        }
        u128 white = ci == 0 ? own : opp, black = ci == 0 ? opp : own;
        PyObject *fields[P_FIELDS] = {
            Py_NewRef(SLOT(position, at[P_VARIANT])), Py_NewRef(turns[ci ^ 1]),
            Py_NewRef(SLOT(position, at[P_RL])), from_set(self, white), from_set(self, black),
            from_set(self, kings), Py_NewRef(SLOT(position, at[P_CTR]))};
        PyObject *after = slotted(ptype, at, fields, P_FIELDS);
        PyObject *answer = after == NULL ? NULL : PyTuple_Pack(4, element, move, after, king ? Py_True : Py_False);
        Py_DECREF(move);
        Py_XDECREF(after);
        if (answer == NULL || PyList_Append(plies, answer) < 0) {
            Py_XDECREF(answer);
            goto error;
        }
        Py_DECREF(answer);
        u128 swap = own;
        own = opp;
        opp = swap;
        ci ^= 1;
    }
    PyMem_Free(recs.items);
    return Py_BuildValue("(nN)", index, plies);
error:
    PyMem_Free(recs.items);
    Py_DECREF(plies);
    return NULL;
}

/* ---- a run of the main line as text ------------------------------------------------------ */
/* twin: pdn_tools.rules.steps.run_text, pdn_tools.play.replay._Line._text */

/* name_squares(numbers): numbers[k] is the square number the text of k names in this variant
 * (variant.parse_square(str(k))), or None; at most MAX_NAMED entries. */
static PyObject *Rules_name_squares(Rules *self, PyObject *numbers) {
    PyObject *fast = PySequence_Fast(numbers, "name_squares: expected a sequence");
    if (fast == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > MAX_NAMED) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "name_squares: at most 100 numbers");
        return NULL;
    }
    memset(self->named, -1, sizeof self->named);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        if (item == Py_None)
            continue;
        long number = PyLong_AsLong(item);
        if (number == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (number >= 1 && number <= self->n)
            self->named[k] = (int8_t)self->index_of[number];
    }
    Py_DECREF(fast);
    Py_RETURN_NONE;
}

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

static int same_position(const Seen *a, const Seen *b) {
    return a->white == b->white && a->black == b->black && a->kings == b->kings && a->turn == b->turn;
}

static Seen *seen_find(SeenTable *table, const Seen *key) {
    for (Py_ssize_t i = 0; i < table->count; i++)
        if (same_position(&table->items[i], key))
            return &table->items[i];
    return NULL;
}

static int seen_add(SeenTable *table, const Seen *key) {
    if (table->count == table->size) {
        Py_ssize_t size = table->size ? table->size * 2 : 16;
        Seen *items = PyMem_Realloc(table->items, (size_t)size * sizeof(Seen));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        table->items = items;
        table->size = size;
    }
    table->items[table->count++] = *key;
    return 0;
}

/* The slots of Position objects (see Rules_run), read once per call. */
typedef struct {
    PyTypeObject *type;
    Py_ssize_t at[P_FIELDS];
    PyObject *variant, *rl, *ctr;       /* borrowed from the run's first position */
    PyObject *turns[2];
} Positions;

static int read_position(const Rules *r, const Positions *p, PyObject *position, Seen *out) {
    if (Py_TYPE(position) != p->type) {
        PyErr_SetString(PyExc_TypeError, "run_text: a position of another type");
        return -1;
    }
    for (int i = 0; i < P_FIELDS; i++)
        if (SLOT(position, p->at[i]) == NULL) {
            PyErr_SetString(PyExc_TypeError, "run_text: the position is not complete");
            return -1;
        }
    PyObject *turn = SLOT(position, p->at[P_TURN]);
    out->turn = PyUnicode_Check(turn) && PyUnicode_CompareWithASCIIString(turn, "B") == 0;
    out->count = 0;
    if (to_set(r, SLOT(position, p->at[P_WHITE]), &out->white) < 0
        || to_set(r, SLOT(position, p->at[P_BLACK]), &out->black) < 0
        || to_set(r, SLOT(position, p->at[P_KINGS]), &out->kings) < 0)
        return -1;
    return 0;
}

static PyObject *make_position(const Rules *r, const Positions *p, const Seen *s) {
    PyObject *fields[P_FIELDS] = {
        Py_NewRef(p->variant), Py_NewRef(p->turns[s->turn]), Py_NewRef(p->rl),
        from_set(r, s->white), from_set(r, s->black), from_set(r, s->kings), Py_NewRef(p->ctr)};
    return slotted(p->type, p->at, fields, P_FIELDS);
}

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

/* Whether the material of `s` is one an ending may begin or go on with (DrawTracker's
 * update() then decides): kings on the board and the material in the `endings` table. */
static int ending_material(const unsigned char *endings, const Seen *s) {
    if (endings == NULL || !s->kings)
        return 0;
    int counts[4] = {popcount128(s->white & ~s->kings), popcount128(s->white & s->kings),
                     popcount128(s->black & ~s->kings), popcount128(s->black & s->kings)};
    Py_ssize_t index = 0;
    for (int i = 0; i < 4; i++) {
        if (counts[i] >= MATERIAL_SIDE)
            return 0;
        index = index * MATERIAL_SIDE + counts[i];
    }
    return endings[index];
}

/* Whether the ply from `before` to `after` leaves DrawTracker.update something to decide
 * (then nothing is counted); else counts it. -1 on error. */
static int count_ply(Counters *c, const Seen *after, int king, int captured) {
    if (!c->on)
        return 0;
    int reversible = !captured && (king || c->men_go_back);
    long quiet = king && !captured ? c->quiet + 1 : 0;
    if (ending_material(c->endings, after))
        return 1;
    if (c->quiet_limit && quiet >= c->quiet_limit && c->quiet_stops)
        return 1;
    if (reversible) {
        Seen *found = seen_find(&c->seen, after);
        long count = found ? found->count + 1 : 1;
        if (c->seen.count == 0 && same_position(&c->since, after))
            count = 2;
        if (count >= c->times && c->repetition_stops)
            return 1;
        if (c->seen.count == 0) {
            Seen first = c->since;
            first.count = 1;
            if (seen_add(&c->seen, &first) < 0)
                return -1;
            found = seen_find(&c->seen, after);
        }
        if (found)
            found->count++;
        else {
            Seen entry = *after;
            entry.count = 1;
            if (seen_add(&c->seen, &entry) < 0)
                return -1;
        }
        c->seen_changed = 1;
    } else {
        if (c->seen.count)
            c->seen_changed = 1;
        c->seen.count = 0;
        c->since = *after;
        c->since_changed = 1;
    }
    if (c->quiet_limit)
        c->quiet = quiet;
    return 0;
}

static int counters_in(const Rules *r, const Positions *p, Counters *c, PyObject *seen,
                       PyObject *since, PyObject *quiet, PyObject *limits) {
    c->quiet = PyLong_AsLong(quiet);
    if (c->quiet == -1 && PyErr_Occurred())
        return -1;
    c->on = seen != Py_None;
    if (!c->on)
        return 0;
    if (!PyDict_Check(seen) || !PyTuple_Check(limits) || PyTuple_GET_SIZE(limits) != 6) {
        PyErr_SetString(PyExc_TypeError, "run_text: bad draw counters");
        return -1;
    }
    long values[5];
    for (int i = 0; i < 5; i++) {
        values[i] = PyLong_AsLong(PyTuple_GET_ITEM(limits, i));
        if (values[i] == -1 && PyErr_Occurred())
            return -1;
    }
    c->times = values[0];
    c->repetition_stops = values[1] != 0;
    c->quiet_limit = values[2];
    c->quiet_stops = values[3] != 0;
    c->men_go_back = values[4] != 0;
    PyObject *endings = PyTuple_GET_ITEM(limits, 5);
    if (endings != Py_None) {
        if (!PyBytes_Check(endings) || PyBytes_GET_SIZE(endings) != ENDING_TABLE) {
            PyErr_SetString(PyExc_TypeError, "run_text: bad ending materials");
            return -1;
        }
        c->endings = (const unsigned char *)PyBytes_AS_STRING(endings);
    }
    if (read_position(r, p, since, &c->since) < 0)
        return -1;
    Py_ssize_t i = 0;
    PyObject *key, *value;
    while (PyDict_Next(seen, &i, &key, &value)) {
        Seen entry;
        if (read_position(r, p, key, &entry) < 0)
            return -1;
        entry.count = (int)PyLong_AsLong(value);
        if (entry.count == -1 && PyErr_Occurred())
            return -1;
        if (seen_add(&c->seen, &entry) < 0)
            return -1;
    }
    return 0;
}

/* Writes the counters back into the tracker's `seen` dict; the new `since` into *since_out. */
static int counters_out(const Rules *r, const Positions *p, Counters *c, PyObject *seen,
                        PyObject *since, PyObject **since_out) {
    *since_out = Py_NewRef(since);
    if (!c->on)
        return 0;
    if (c->since_changed) {
        Py_DECREF(*since_out);
        *since_out = make_position(r, p, &c->since);
        if (*since_out == NULL)
            return -1;
    }
    if (!c->seen_changed)
        return 0;
    PyDict_Clear(seen);
    for (Py_ssize_t i = 0; i < c->seen.count; i++) {
        PyObject *key = make_position(r, p, &c->seen.items[i]);
        PyObject *count = key == NULL ? NULL : PyLong_FromLong(c->seen.items[i].count);
        int failed = count == NULL || PyDict_SetItem(seen, key, count) < 0;
        Py_XDECREF(key);
        Py_XDECREF(count);
        if (failed)
            return -1;
    }
    return 0;
}

/* White space between a run's items (grammar._PLAIN_RUN). */
static int run_space(Py_UCS4 ch) {
    return ch == ' ' || ch == '\n' || ch == '\t';
}

/* Whether the space at text[j] is the one a separator may have after it (`1- 7`): a move goes on. */
static int separator_space(const char *text, Py_ssize_t len, Py_ssize_t j) {
    return text[j] == ' ' && j > 0 && (text[j - 1] == '-' || text[j - 1] == 'x') && j + 1 < len &&
           text[j + 1] >= '0' && text[j + 1] <= '9';
}

/* The next item of a run at `*pos` (white space skipped): 0 at the end, 1 a move number
 * (digits then dots; a move may follow at once, `1.33-29`), 2 a move with its squares in
 * squares[] (*count of them, at least two) and *capture, 3 what is not a run's move;
 * *pos is left at the item's start, *end after it (as model.MoveRun.item_at). */
static int next_item(const char *text, Py_ssize_t len, Py_ssize_t *pos, Py_ssize_t *end,
                     int *squares, int *count, int *capture) {
    Py_ssize_t i = *pos;
    while (i < len && run_space(text[i]))
        i++;
    *pos = i;
    if (i == len)
        return 0;
    Py_ssize_t j = i;
    while (j < len && text[j] >= '0' && text[j] <= '9')
        j++;
    if (j < len && text[j] == '.') {
        while (j < len && text[j] == '.')
            j++;
        *end = j;
        return 1;
    }
    while (j < len && (!run_space(text[j]) || (j > i && separator_space(text, len, j))))
        j++;
    *end = j;
    *count = 0;
    *capture = 0;
    int value = 0, digits = 0;
    for (Py_ssize_t k = i; k <= j; k++) {
        char ch = k < j ? text[k] : '-';
        if (ch == ' ')                   /* a separator's space */
            continue;
        if (ch >= '0' && ch <= '9' && digits < 3) {
            value = value * 10 + (ch - '0');
            digits++;
            continue;
        }
        if ((ch != '-' && ch != 'x') || digits == 0 || digits > 2 || *count >= MAX_PATH)
            return 3;                    /* not a run's move: left to the caller */
        squares[(*count)++] = value;
        *capture |= ch == 'x' && k < j;
        value = digits = 0;
    }
    return *count >= 2 ? 2 : 3;
}

/* The squares written (numbers) as squares of this board, in place; 0 when one is none. */
static int named_squares(const Rules *r, int *squares, int count) {
    for (int i = 0; i < count; i++) {
        if (squares[i] >= MAX_NAMED || r->named[squares[i]] < 0)
            return 0;
        squares[i] = r->named[squares[i]];
    }
    return 1;
}

/* The capture `squares` (start, landing squares in between, end; at least three) stands for,
 * as replay.resolve finds it: a lawful capture from the start to the end on whose landing
 * squares the squares in between lie, in order; NULL when none does or several taking
 * different pieces do (resolve then decides, and explains). */
static const Record *landing_capture(const Rules *r, int ci, u128 own, u128 opp, u128 kings,
                                     const int *squares, int count, Records *recs) {
    recs->count = 0;
    legal_records(r, ci, own, opp, kings, recs);
    const Record *first = NULL;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *rec = &recs->items[i];
        if (rec->start != squares[0] || rec->path[rec->len - 1] != squares[count - 1])
            continue;
        int at = 0, wanted = 1;
        for (; wanted < count - 1; wanted++) {           /* each in order on path[:-1] */
            while (at < rec->len - 1 && rec->path[at] != squares[wanted])
                at++;
            if (at == rec->len - 1)
                break;
            at++;
        }
        if (wanted < count - 1)
            continue;
        if (first == NULL)
            first = rec;
        else if (rec->capm != first->capm)
            return NULL;
    }
    return first;
}

/* run_text(text, offset, position, seen, since, quiet, limits)
 *   -> (offset, plies, position before the last ply, position after it, since, quiet)
 * Plays the moves of a MoveRun's text from `offset` while each is a two-square move that
 * steps.quiet_step / capture_step would play or a capture through given squares that
 * replay.resolve finds alone (landing_capture), skipping move numbers, and counts them as
 * DrawTracker.update would (seen, since, quiet: its fields, seen updated in place; seen None
 * when it counts no more; limits = (repetitions, repetition stops, quiet limit or 0, quiet
 * stops, men go back, the materials of the endings or None: draws.ending_materials)).
 * Stops at the first move it leaves to the caller (offset = where that move starts;
 * len(text) when the run is played).  Positions are made of
 * the type of `position`: only the last two, and the tracker's when they changed. */
static PyObject *Rules_run_text(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "run_text takes 7 arguments");
        return NULL;
    }
    PyObject *text_obj = args[0], *position = args[2], *seen = args[3], *since = args[4];
    if (!PyUnicode_Check(text_obj) || !PyUnicode_IS_ASCII(text_obj)) {
        PyErr_SetString(PyExc_TypeError, "run_text: the text must be an ASCII str");
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(text_obj);
    const char *text = (const char *)PyUnicode_DATA(text_obj);
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    if (pos < 0 || pos > len) {
        PyErr_SetString(PyExc_ValueError, "run_text: offset out of the text");
        return NULL;
    }
    static PyObject *turns[2] = {NULL, NULL};
    if (turns[0] == NULL) {
        turns[0] = PyUnicode_InternFromString("W");
        turns[1] = PyUnicode_InternFromString("B");
        if (turns[0] == NULL || turns[1] == NULL)
            return NULL;
    }
    Positions p = {Py_TYPE(position), {0}, NULL, NULL, NULL, {turns[0], turns[1]}};
    if (layout(p.type, POSITION_FIELDS, P_FIELDS, p.at) < 0)
        return NULL;
    Seen now, before;
    if (read_position(self, &p, position, &now) < 0)
        return NULL;
    p.variant = SLOT(position, p.at[P_VARIANT]);
    p.rl = SLOT(position, p.at[P_RL]);
    p.ctr = SLOT(position, p.at[P_CTR]);
    Counters c;
    memset(&c, 0, sizeof c);
    Records recs = {NULL, 0, 0, 0};
    PyObject *result = NULL, *new_since = NULL, *after_obj = NULL, *before_obj = NULL;
    if (counters_in(self, &p, &c, seen, since, args[5], args[6]) < 0)
        goto done;
    before = now;
    long plies = 0;
    for (;;) {
        Py_ssize_t end = pos;
        int squares[MAX_PATH], count = 0, capture = 0;
        int kind = next_item(text, len, &pos, &end, squares, &count, &capture);
        if (kind == 0 || kind == 3 || self->limit)      /* a king-move limit: Python counts */
            break;
        if (kind == 1) {
            pos = end;
            continue;
        }
        if (!named_squares(self, squares, count) || (count > 2 && !capture))
            break;
        int sb = squares[0], eb = squares[count - 1];
        int ci = now.turn;
        u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
        int king = HAS(kings, sb);
        if (count > 2) {
            const Record *rec = landing_capture(self, ci, own, opp, kings, squares, count, &recs);
            if (recs.failed) {
                PyErr_NoMemory();
                goto done;
            }
            if (rec == NULL)
                break;
            after_capture(rec, &own, &opp, &kings);
        } else if (!capture) {
            int promotes;
            if (!quiet_step(self, ci, own, opp, kings, sb, eb, &promotes))
                break;
            after_quiet(sb, eb, king, promotes, &own, &kings);
        } else {
            Record rec;
            int played = play_capture_step(self, ci, &own, &opp, &kings, sb, eb, &recs, &rec);
            if (played < 0)
                goto done;
            if (!played)
                break;
        }
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        int stop = count_ply(&c, &next, king, capture);
        if (stop < 0)
            goto done;
        if (stop)
            break;
        before = now;
        now = next;
        plies++;
        pos = end;
    }
    if (counters_out(self, &p, &c, seen, since, &new_since) < 0)
        goto done;
    if (plies) {
        before_obj = make_position(self, &p, &before);
        after_obj = before_obj == NULL ? NULL : make_position(self, &p, &now);
        if (after_obj == NULL)
            goto done;
    } else {
        before_obj = Py_NewRef(Py_None);
        after_obj = Py_NewRef(Py_None);
    }
    result = Py_BuildValue("(nlOOOl)", pos, plies, before_obj, after_obj, new_since, c.quiet);
done:
    Py_XDECREF(before_obj);
    Py_XDECREF(after_obj);
    Py_XDECREF(new_since);
    PyMem_Free(c.seen.items);
    PyMem_Free(recs.items);
    return result;
}

static PyMethodDef Rules_methods[] = {
    {"run_text", (PyCFunction)(void (*)(void))Rules_run_text, METH_FASTCALL,
     "run_text(text, offset, position, seen, since, quiet, limits): a MoveRun's moves"},
    {"name_squares", (PyCFunction)Rules_name_squares, METH_O,
     "name_squares(numbers): the square each written number 0..99 names, or None"},
    {"run", (PyCFunction)(void (*)(void))Rules_run, METH_FASTCALL,
     "run(elements, index, position, known, kinds, quiet_move_of, move_type): a main-line run"},
    {"has_capture", (PyCFunction)(void (*)(void))Rules_has_capture, METH_FASTCALL,
     "has_capture(ci, own, opp, kings): whether the side owning `own` must capture"},
    {"has_move", (PyCFunction)(void (*)(void))Rules_has_move, METH_FASTCALL,
     "has_move(ci, own, opp, kings, counter) -> whether the side has a legal move"},
    {"capture_records", (PyCFunction)(void (*)(void))Rules_capture_records, METH_FASTCALL,
     "capture_records(ci, own, opp, kings, starts, law): complete captures as records"},
    {"legal_records", (PyCFunction)(void (*)(void))Rules_legal_records, METH_FASTCALL,
     "legal_records(ci, own, opp, kings): the captures the law allows, [] when none"},
    {"quiet_moves", (PyCFunction)(void (*)(void))Rules_quiet_moves, METH_FASTCALL,
     "quiet_moves(ci, own, opp, kings, counter): (from bit, to bit) of each quiet move"},
    {"perft", (PyCFunction)(void (*)(void))Rules_perft, METH_FASTCALL,
     "perft(ci, own, opp, kings, counter, opponent counter, depth, keep): leaf nodes"},
    {"zobrist", (PyCFunction)(void (*)(void))Rules_zobrist, METH_FASTCALL,
     "zobrist(white, black, kings, black_to_move): the position's Zobrist hash"},
    {"search", (PyCFunction)(void (*)(void))Rules_search, METH_FASTCALL,
     "search(ci, own, opp, kings, counter, opponent counter, depth, nodes, king value): (score, line, nodes)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pdn_tools.rules._core.Rules",
    .tp_doc = "A variant's tables and rule switches for the compiled move core.",
    .tp_basicsize = sizeof(Rules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_methods = Rules_methods,
};

/* ---- the scanner's MOVES terminal ----------------------------------------------------------
 * moves_end(text, pos, endpos) -> the end of the MOVES token (grammars/pdn.lark) that Python's
 * re matches at `pos` in text[:endpos] (lookbehinds may read before `pos`), or -1 when none
 * does.  The regular expression tries each alternative in order and keeps the first that
 * matches; nothing after an item can fail, so no choice is ever taken back, and these
 * functions make the same first choices.  tests/test_scan_core.py compares the two.
 * twin: pdn_tools.text.grammar.PdnParser.tokens (its MOVES alternative, with no moves_end) */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t end;
} Text;

static inline Py_UCS4 char_at(const Text *t, Py_ssize_t i) {
    return i >= 0 && i < t->end ? PyUnicode_READ(t->kind, t->data, i) : 0;    /* 0 matches nothing */
}

static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int is_file(Py_UCS4 c) { return (c >= 'a' && c <= 'l') || (c >= 'A' && c <= 'L'); }

/* [0-9]{1,2}|[a-lA-L](?:1[0-2]|[1-9]) */
static Py_ssize_t square_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (is_digit(c))
        return is_digit(char_at(t, i + 1)) ? i + 2 : i + 1;
    if (!is_file(c))
        return -1;
    Py_UCS4 d = char_at(t, i + 1), e = char_at(t, i + 2);
    if (d == '1' && e >= '0' && e <= '2')
        return i + 3;
    return d >= '1' && d <= '9' ? i + 2 : -1;
}

/* (?:[-xX:] ?|(?<=[0-9])(?=[a-lA-L])) then a square */
static Py_ssize_t step_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (c == '-' || c == 'x' || c == 'X' || c == ':') {
        if (char_at(t, i + 1) == ' ') {
            Py_ssize_t end = square_end(t, i + 2);
            if (end >= 0)
                return end;
        }
        return square_end(t, i + 1);
    }
    return is_digit(char_at(t, i - 1)) && is_file(c) ? square_end(t, i) : -1;
}

/* (?!(?:2-0|0-2|1-1|0-0|1-0|0-1|1:0|0:1)(?:(?![0-9])|(?=[0-9]+\.))) */
static int result_ahead(const Text *t, Py_ssize_t i) {
    static const char *const RESULTS[8] = {"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1:0", "0:1"};
    Py_UCS4 a = char_at(t, i), b = char_at(t, i + 1), c = char_at(t, i + 2);
    int found = 0;
    for (int r = 0; r < 8 && !found; r++)
        found = a == (Py_UCS4)RESULTS[r][0] && b == (Py_UCS4)RESULTS[r][1] && c == (Py_UCS4)RESULTS[r][2];
    if (!found)
        return 0;
    Py_ssize_t j = i + 3;
    if (!is_digit(char_at(t, j)))
        return 1;
    while (is_digit(char_at(t, j)))
        j++;
    return char_at(t, j) == '.';
}

/* MOVE: a square and steps, else Russian short algebraic [a-l][a-l](?:1[0-2]|[1-9])(?![0-9]) */
static Py_ssize_t move_end(const Text *t, Py_ssize_t i) {
    if (result_ahead(t, i))
        return -1;
    Py_ssize_t end = square_end(t, i), last = -1;
    while (end >= 0) {
        end = step_end(t, end);
        if (end >= 0)
            last = end;
    }
    if (last >= 0)
        return last;
    Py_UCS4 a = char_at(t, i), b = char_at(t, i + 1), c = char_at(t, i + 2), d = char_at(t, i + 3);
    if (!(a >= 'a' && a <= 'l' && b >= 'a' && b <= 'l'))
        return -1;
    if (c == '1' && d >= '0' && d <= '2' && !is_digit(char_at(t, i + 4)))
        return i + 4;
    return c >= '1' && c <= '9' && !is_digit(d) ? i + 3 : -1;
}

/* One item: MOVE | MOVENUMBER | NAG | STRENGTH | PLACEHOLDER | ELLIPSIS, in the terminal's order. */
static Py_ssize_t item_end(const Text *t, Py_ssize_t i) {
    Py_ssize_t end = move_end(t, i);
    if (end >= 0)
        return end;
    Py_UCS4 c = char_at(t, i);
    Py_ssize_t j = i;
    while (is_digit(char_at(t, j)))                       /* [0-9]+\.(?:\.\.)? */
        j++;
    if (j > i && char_at(t, j) == '.')
        return char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.' ? j + 3 : j + 1;
    if (c == '$' && is_digit(char_at(t, i + 1))) {       /* \$[0-9]+ */
        for (j = i + 1; is_digit(char_at(t, j)); j++)
            ;
        return j;
    }
    if (c == '(') {                                       /* \([!?]+\) */
        for (j = i + 1; char_at(t, j) == '!' || char_at(t, j) == '?'; j++)
            ;
        if (j > i + 1 && char_at(t, j) == ')')
            return j + 1;
    }
    if (c == '!' || c == '?') {                           /* [!?]+ */
        for (j = i; char_at(t, j) == '!' || char_at(t, j) == '?'; j++)
            ;
        return j;
    }
    if (c == '*' && is_digit(char_at(t, i - 1)))         /* (?<=[0-9])\* */
        return i + 1;
    if (c == '-') {                                       /* -(?:[ \t]*-)?(?![0-9]) */
        for (j = i + 1; char_at(t, j) == ' ' || char_at(t, j) == '\t'; j++)
            ;
        if (char_at(t, j) == '-' && !is_digit(char_at(t, j + 1)))
            return j + 1;
        return is_digit(char_at(t, i + 1)) ? -1 : i + 1;
    }
    if (c == '.' && char_at(t, i + 1) == '.' && char_at(t, i + 2) == '.')
        return i + 3;
    return -1;
}

/* (?:[ \t\f\n]|\\[rn])* */
static Py_ssize_t gap_end(const Text *t, Py_ssize_t i) {
    for (;;) {
        Py_UCS4 c = char_at(t, i);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\n')
            i++;
        else if (c == '\\' && (char_at(t, i + 1) == 'r' || char_at(t, i + 1) == 'n'))
            i += 2;
        else
            return i;
    }
}

static PyObject *moves_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "moves_end(text: str, pos: int, endpos: int)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), endpos = PyLong_AsSsize_t(args[2]);
    if ((pos == -1 || endpos == -1) && PyErr_Occurred())
        return NULL;
    Py_ssize_t len = PyUnicode_GET_LENGTH(args[0]);
    if (pos < 0 || endpos > len || pos > endpos) {
        PyErr_SetString(PyExc_ValueError, "moves_end: positions out of the text");
        return NULL;
    }
    Text t = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), endpos};
    Py_ssize_t end = item_end(&t, pos);
    for (Py_ssize_t next = end; next >= 0; next = item_end(&t, gap_end(&t, end)))
        end = next;
    return PyLong_FromSsize_t(end);
}

/* [1-9][0-9]?(?:- ?[1-9][0-9]?|(?:x ?[1-9][0-9]?){1,24}): the end of a plain run's move, or -1 */
static Py_ssize_t run_move_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (!(c >= '1' && c <= '9'))
        return -1;
    i += is_digit(char_at(t, i + 1)) ? 2 : 1;
    Py_UCS4 separator = char_at(t, i);
    if (separator != '-' && separator != 'x')
        return -1;
    for (int steps = 0; steps < (separator == '-' ? 1 : 24) && char_at(t, i) == separator; steps++) {
        Py_ssize_t square = char_at(t, i + 1) == ' ' ? i + 2 : i + 1;
        c = char_at(t, square);
        if (!(c >= '1' && c <= '9'))
            return steps ? i : -1;
        i = square + (is_digit(char_at(t, square + 1)) ? 2 : 1);
    }
    return i;
}

/* (?>[1-9][0-9]{0,5}\.(?:\.\.)?|\.\.\.)(?:MOVE)?|MOVE): the end of a plain run's item, or -1 */
static Py_ssize_t run_item_end(const Text *t, Py_ssize_t i) {
    Py_ssize_t j = i;
    if (char_at(t, i) >= '1' && char_at(t, i) <= '9')
        for (j = i + 1; j < i + 6 && is_digit(char_at(t, j)); j++)
            ;
    if (char_at(t, j) == '.' && (j > i || (char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.'))) {
        j += char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.' ? 3 : 1;
        Py_ssize_t move = run_move_end(t, j);
        return move >= 0 ? move : j;
    }
    return run_move_end(t, i);
}

/* plain_run(text) -> whether grammar._PLAIN_RUN matches the whole text (twin:
 * pdn_tools.text.grammar._plain_by_regex): items one white space
 * or more (' ', '\t', '\n') apart, nothing before or after. */
static PyObject *plain_run(PyObject *module, PyObject *text) {
    (void)module;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "plain_run(text: str)");
        return NULL;
    }
    Text t = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    Py_ssize_t i = 0;
    for (;;) {
        i = run_item_end(&t, i);
        if (i < 0)
            Py_RETURN_FALSE;
        if (i == t.end)
            Py_RETURN_TRUE;
        Py_ssize_t gap = i;
        while (run_space(char_at(&t, i)))
            i++;
        if (i == gap)
            Py_RETURN_FALSE;
    }
}

/* moves_hint(text, wanted) -> (moves, highest square number or -1) over the first `wanted`
 * moves of a MoveRun's text (twin: pdn_tools.play.replay.run_hint). */
static PyObject *moves_hint(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyUnicode_IS_ASCII(args[0])) {
        PyErr_SetString(PyExc_TypeError, "moves_hint(text: ASCII str, wanted: int)");
        return NULL;
    }
    long wanted = PyLong_AsLong(args[1]);
    if (wanted == -1 && PyErr_Occurred())
        return NULL;
    const char *text = (const char *)PyUnicode_DATA(args[0]);
    Py_ssize_t len = PyUnicode_GET_LENGTH(args[0]), pos = 0;
    long moves = 0, top = -1;
    while (moves < wanted) {
        Py_ssize_t end = pos;
        int squares[MAX_PATH], count = 0, capture = 0;
        int kind = next_item(text, len, &pos, &end, squares, &count, &capture);
        if (kind == 0)
            break;
        if (kind == 3) {
            PyErr_SetString(PyExc_ValueError, "moves_hint: not a run of moves");
            return NULL;
        }
        if (kind == 2) {
            moves++;
            for (int i = 0; i < count; i++)
                if (squares[i] > top)
                    top = squares[i];
        }
        pos = end;
    }
    return Py_BuildValue("(ll)", moves, top);
}

#include "_fast.c"

static PyMethodDef core_functions[] = {
    {"fast_game", (PyCFunction)(void (*)(void))fast_game, METH_FASTCALL,
     "fast_game(text, pos, endpos): the scanner's tokens of the common game at pos, or None"},
    {"moves_hint", (PyCFunction)(void (*)(void))moves_hint, METH_FASTCALL,
     "moves_hint(text, wanted): (moves, highest square number or -1) of a run's first moves"},
    {"moves_end", (PyCFunction)(void (*)(void))moves_end, METH_FASTCALL,
     "moves_end(text, pos, endpos): the end of the scanner's MOVES token at pos, or -1"},
    {"plain_run", (PyCFunction)plain_run, METH_O,
     "plain_run(text): whether a MOVES token may be kept as text (grammar._PLAIN_RUN matches it all)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled move core of pdn_tools.rules.movegen.", -1, core_functions,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&RulesType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(module, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "LAW_FREE", LAW_FREE) < 0
        || PyModule_AddIntConstant(module, "LAW_COUNT", LAW_COUNT) < 0
        || PyModule_AddIntConstant(module, "LAW_COUNT_KINGS", LAW_COUNT_KINGS) < 0
        || PyModule_AddIntConstant(module, "LAW_ITALIAN", LAW_ITALIAN) < 0
        || PyModule_AddIntConstant(module, "LAW_FRISIAN", LAW_FRISIAN) < 0
        || PyModule_AddIntConstant(module, "LAW_KING", LAW_KING) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
