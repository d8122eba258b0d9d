/* The search of rules.search in C: Zobrist hashes and alpha-beta with capture quiescence.
 *
 * Every step mirrors the pure-Python reference (pdn_tools/rules/search.py): the same keys,
 * forcing-move extension, move order (history included, cleared for each search),
 * transposition table (2**TT_BITS slots, always replaced), node counting and
 * node limit (which cuts any iteration, the first included), so both engines give the same
 * scores, lines and node counts.  The search holds
 * the GIL: its table and buffers are module-level and reused from one search to the next (a
 * table slot counts only when written by the current search, as a fresh table would).
 */
#include "_core.h"

#define WIN 100000
#define MAN 100
#define INF (WIN + 1)
#define MATE_ZONE (WIN - 1000)
#define TT_BITS 16
#define MAX_PLY 64
#define MAX_QUIET 2048
#define STOP_EVERY 1024                 /* nodes between two looks at the stop flag */
#define SEED 0x70646E2D746F6F6CULL
enum { EXACT, LOWER, UPPER };

typedef struct {
    uint64_t key;
    uint32_t search;                    /* the search that wrote it; others' entries are empty */
    int32_t score;
    int16_t depth, move;
    int8_t flag, ext;
} Entry;

typedef struct {
    const Rules *r;
    const uint64_t (*keys)[MAX_IDX];    /* Zobrist keys by kind and square index */
    uint64_t side;
    long long nodes, limit;             /* limit: -1 for none */
    int aborted, king;
    PyObject *stop;                     /* an object whose is_set() asks the search to stop, or NULL */
    Records recs[MAX_PLY];
    Record pv[MAX_PLY + 1][MAX_PLY + 1];
    long long history[2][MAX_SQ + 1][MAX_SQ + 1];  /* quiet cutoffs by colour, start and end number */
    int pvlen[MAX_PLY + 1];
} Search;

static Entry table[1 << TT_BITS];
static uint32_t searches;
static Search state;

static uint64_t zobrist_key(int index) {
    uint64_t z = SEED + (uint64_t)(index + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The keys of the piece kinds (white man, white king, black man, black king) by square index,
 * made on first use. */
static const uint64_t (*zobrist_keys(Rules *r))[MAX_IDX] {
    if (!r->zobrist_ready) {
        for (int kind = 0; kind < 4; kind++)
            for (int sq = 0; sq < MAX_IDX; sq++)
                r->zobrist[kind][sq] = HAS(r->valid, sq) ? zobrist_key(kind * 128 + r->number[sq] - 1) : 0;
        r->zobrist_ready = 1;
    }
    return (const uint64_t (*)[MAX_IDX])r->zobrist;
}

static uint64_t set_hash(const uint64_t *keys, u128 set) {
    uint64_t h = 0;
    while (set) {
        h ^= keys[lowest(set)];
        set &= set - 1;
    }
    return h;
}

static uint64_t position_hash(const uint64_t (*keys)[MAX_IDX], u128 white, u128 black, u128 kings) {
    return set_hash(keys[0], white & ~kings) ^ set_hash(keys[1], white & kings)
           ^ set_hash(keys[2], black & ~kings) ^ set_hash(keys[3], black & kings);
}

/* zobrist(white, black, kings, black_to_move) -> Position.hash() */
PyObject *Rules_zobrist(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    u128 white, black, kings;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "expected 4 arguments, got %zd", nargs);
        return NULL;
    }
    int black_to_move = PyObject_IsTrue(args[3]);
    if (black_to_move < 0 || to_set(self, args[0], &white) < 0 || to_set(self, args[1], &black) < 0
        || to_set(self, args[2], &kings) < 0)
        return NULL;
    uint64_t h = position_hash(zobrist_keys(self), white, black, kings) ^ (black_to_move ? zobrist_key(512) : 0);
    return PyLong_FromUnsignedLongLong(h);
}

/* ---- move order ------------------------------------------------------------------------ */

typedef struct {
    int len, start, end, promotes, index;
    int caps[MAX_PATH];                 /* captured square numbers, sorted */
} CaptureKey;

static int int_cmp(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* Python's tuple order of (-len, start, end, *sorted captures, promotes). */
static int capture_cmp(const void *pa, const void *pb) {
    const CaptureKey *a = pa, *b = pb;
    if (a->len != b->len) return b->len - a->len;
    if (a->start != b->start) return a->start - b->start;
    if (a->end != b->end) return a->end - b->end;
    for (int i = 0; i < a->len; i++)
        if (a->caps[i] != b->caps[i]) return a->caps[i] - b->caps[i];
    return a->promotes - b->promotes;
}

static int step_cmp(const void *pa, const void *pb) {
    const int *a = pa, *b = pb;         /* (start number, end number, index) */
    if (a[0] != b[0]) return a[0] - b[0];
    return a[1] - b[1];
}

/* ---- the search ------------------------------------------------------------------------ */

static int to_table(int score, int ply) {
    return score > MATE_ZONE ? score + ply : score < -MATE_ZONE ? score - ply : score;
}

static int from_table(int score, int ply) {
    return score > MATE_ZONE ? score - ply : score < -MATE_ZONE ? score + ply : score;
}

static int material(const Search *s, u128 own, u128 opp, u128 kings) {
    return MAN * (popcount128(own & ~kings) - popcount128(opp & ~kings))
           + s->king * (popcount128(own & kings) - popcount128(opp & kings));
}

static void quiet_record(const Rules *r, int ci, u128 kings, const Step *step, Record *out) {
    out->start = step->from;
    out->len = 1;
    out->path[0] = step->to;
    out->promotes = !HAS(kings, step->from) && HAS(r->promo[ci], step->to);
    out->with_king = HAS(kings, step->from);
    out->capm = 0;
}

/* The history score of the quiet move of base rank `i`. */
static long long history_of(const Search *s, int ci, const Step *steps, const int *order, int i) {
    const Step *step = &steps[order[i]];
    return s->history[ci][s->r->number[(int)step->from]][s->r->number[(int)step->to]];
}

/* Whether the side owning `own` has exactly one capture (the search's records at `ply` are used). */
static int forced_capture(Search *s, int ci, u128 own, u128 opp, u128 kings, int ply) {
    if (!has_capture(s->r, ci, own, opp, kings))
        return 0;
    Records *recs = &s->recs[ply];
    legal_records(s->r, ci, own, opp, kings, recs);
    drop_duplicates(recs);
    return recs->count == 1;
}

/* Whether the stop flag is set; -1 with an exception set when is_set() fails.  Every YIELD_EVERY
 * nodes the GIL is let go for a moment, so that the thread that would set the flag runs.  Not more
 * often: a thread waiting for the GIL asks for it only after waiting the switch interval (5 ms)
 * without being woken, and each release wakes it, so releases every 0.3 ms starved it (a Hub
 * `stop` waited seconds). */
#define YIELD_EVERY (STOP_EVERY * 64)
static int stop_asked(Search *s) {
    if (s->nodes % YIELD_EVERY == 0) {
        Py_BEGIN_ALLOW_THREADS
        Py_END_ALLOW_THREADS
    }
    PyObject *value = PyObject_CallMethod(s->stop, "is_set", NULL);
    if (value == NULL)
        return -1;
    int set = PyObject_IsTrue(value);
    Py_DECREF(value);
    return set;
}

static int node(Search *s, int ci, u128 own, u128 opp, u128 kings, int c_own, int c_opp, uint64_t h,
                int depth, int alpha, int beta, int ply, int ext) {
    const Rules *r = s->r;
    s->nodes++;
    if (s->limit >= 0 && s->nodes > s->limit) {
        s->aborted = 1;
        return 0;
    }
    /* A signal (Ctrl-C, SIGTERM: pdn's handlers end the run) is heard within STOP_EVERY nodes, as
     * the pure search hears it between two bytecodes: a search without a limit may run long, and a
     * process that cannot be stopped is worse than a slow one. */
    if (s->nodes % STOP_EVERY == 0 && PyErr_CheckSignals() < 0) {
        s->aborted = 3;
        return 0;
    }
    if (s->stop != NULL && s->nodes % STOP_EVERY == 0) {
        int set = stop_asked(s);
        if (set) {
            s->aborted = set < 0 ? 3 : 1;
            return 0;
        }
    }
    s->pvlen[ply] = 0;
    if (ply >= MAX_PLY)
        return material(s, own, opp, kings);
    int capture = has_capture(r, ci, own, opp, kings);
    Records *recs = &s->recs[ply];
    Step steps[MAX_QUIET];
    int n;
    static int order_buf[MAX_PLY][MAX_QUIET], step_keys[MAX_PLY][MAX_QUIET][3], rank_buf[MAX_PLY][MAX_QUIET];
    int *order = order_buf[ply];
    if (capture) {
        legal_records(r, ci, own, opp, kings, recs);
        if (recs->failed) {
            s->aborted = 2;
            return 0;
        }
        drop_duplicates(recs);
        n = (int)recs->count;
        CaptureKey *keys = PyMem_Malloc((size_t)n * sizeof(CaptureKey));
        if (keys == NULL) {
            s->aborted = 2;
            return 0;
        }
        for (int i = 0; i < n; i++) {
            const Record *rec = &recs->items[i];
            CaptureKey *k = &keys[i];
            k->len = rec->len;
            k->start = r->number[(int)rec->start];
            k->end = r->number[(int)rec->path[rec->len - 1]];
            k->promotes = rec->promotes;
            k->index = i;
            for (int j = 0; j < rec->len; j++)
                k->caps[j] = r->number[(int)rec->caps[j]];
            qsort(k->caps, (size_t)rec->len, sizeof(int), int_cmp);
        }
        qsort(keys, (size_t)n, sizeof(CaptureKey), capture_cmp);
        for (int i = 0; i < n; i++)
            order[i] = keys[i].index;
        PyMem_Free(keys);
    } else if (depth <= 0) {
        int any = quiet_moves_fast(r, ci, own, opp, kings, c_own, NULL, 0, 1);
        return any ? material(s, own, opp, kings) : -(WIN - ply);
    } else {
        n = quiet_moves_fast(r, ci, own, opp, kings, c_own, steps, MAX_QUIET, 0);
        if (n == 0)
            return -(WIN - ply);
        int (*keys)[3] = step_keys[ply];
        for (int i = 0; i < n; i++) {
            keys[i][0] = r->number[(int)steps[i].from];
            keys[i][1] = r->number[(int)steps[i].to];
            keys[i][2] = i;
        }
        for (int i = 1; i < n; i++)         /* insertion sort: few moves, no ties */
            for (int j = i; j > 0 && step_cmp(keys[j - 1], keys[j]) > 0; j--) {
                int t[3] = {keys[j][0], keys[j][1], keys[j][2]};
                memcpy(keys[j], keys[j - 1], sizeof t);
                memcpy(keys[j - 1], t, sizeof t);
            }
        for (int i = 0; i < n; i++)
            order[i] = keys[i][2];
    }
    Entry *entry = &table[h & ((1u << TT_BITS) - 1)];
    int first = -1;
    if (entry->search == searches && entry->key == h) {
        first = entry->move;
        if (entry->depth >= depth && entry->ext >= ext) {
            int stored = from_table(entry->score, ply);
            if ((entry->flag == LOWER && stored >= beta) || (entry->flag == UPPER && stored <= alpha))
                return stored;
        }
    }
    /* the table's move first, then quiet moves by their history (stable: ties keep the order) */
    int *ranks = rank_buf[ply], m = 0;
    if (first >= 0 && first < n)
        ranks[m++] = first;
    for (int i = 0; i < n; i++) {
        if (i == first)
            continue;
        int j = m++;
        if (!capture) {
            long long score = history_of(s, ci, steps, order, i);
            for (; j > (first >= 0 && first < n) && history_of(s, ci, steps, order, ranks[j - 1]) < score; j--)
                ranks[j] = ranks[j - 1];
        }
        ranks[j] = i;
    }
    int best = -INF, best_index = 0, start_alpha = alpha;
    for (int t = 0; t < n; t++) {
        int i = ranks[t];
        int score;
        Record move;
        if (capture) {
            move = recs->items[order[i]];
            u128 o = own, p = opp, k = kings;
            after_capture(&move, &o, &p, &k);
            int king = HAS(kings, move.start), base = 2 * ci, other = 2 * (ci ^ 1);
            uint64_t nh = h ^ s->side ^ s->keys[base + king][(int)move.start]
                          ^ s->keys[base + (king || move.promotes)][(int)move.path[move.len - 1]];
            nh ^= set_hash(s->keys[other], move.capm & ~kings) ^ set_hash(s->keys[other + 1], move.capm & kings);
            score = -node(s, ci ^ 1, p, o, k, c_opp, 0, nh, depth, -beta, -alpha, ply + 1, ext);
        } else {
            const Step *step = &steps[order[i]];
            quiet_record(r, ci, kings, step, &move);
            int from = step->from, to = step->to, king = HAS(kings, from), base = 2 * ci;
            u128 k = kings, p = (own & ~BIT(from)) | BIT(to);
            if (king || move.promotes)
                k = (k & ~BIT(from)) | BIT(to);
            int forcing = ext > 0 && forced_capture(s, ci ^ 1, opp, p, k, ply + 1);
            uint64_t nh = h ^ s->side ^ s->keys[base + king][from] ^ s->keys[base + (king || move.promotes)][to];
            int ctr = r->limit ? next_counter(r, c_own, from, to, king) : 0;
            score = -node(s, ci ^ 1, opp, p, k, c_opp, ctr, nh, forcing ? depth : depth - 1, -beta, -alpha,
                          ply + 1, forcing ? ext - 1 : 0);
        }
        if (s->aborted)
            return 0;
        if (score > best) {
            best = score;
            best_index = i;
            if (score > alpha) {
                alpha = score;
                s->pv[ply][0] = move;
                memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)s->pvlen[ply + 1] * sizeof(Record));
                s->pvlen[ply] = 1 + s->pvlen[ply + 1];
                if (alpha >= beta) {
                    if (!capture)
                        s->history[ci][r->number[(int)move.start]][r->number[(int)move.path[0]]]
                            += (long long)depth * depth;
                    break;
                }
            }
        }
    }
    entry->key = h;
    entry->search = searches;
    entry->depth = (int16_t)depth;
    entry->ext = (int8_t)ext;
    entry->flag = (int8_t)(best >= beta ? LOWER : best <= start_alpha ? UPPER : EXACT);
    entry->score = to_table(best, ply);
    entry->move = (int16_t)best_index;
    return best;
}

/* The line as (start, path, captured, promotes) tuples of square numbers. */
static PyObject *line_list(const Rules *r, const Record *line, int len) {
    PyObject *out = PyList_New(len);
    for (int i = 0; out != NULL && i < len; i++) {
        const Record *m = &line[i];
        PyObject *path = squares_tuple(r->number, m->path, m->len);
        PyObject *caps = path == NULL ? NULL : squares_tuple(r->number, m->caps, m->capm ? m->len : 0);
        PyObject *item = caps == NULL ? NULL : Py_BuildValue("(iOOO)", r->number[(int)m->start], path, caps,
                                                             m->promotes ? Py_True : Py_False);
        Py_XDECREF(path);
        Py_XDECREF(caps);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, item);
    }
    return out;
}

/* search(ci, own, opp, kings, counter, opponent counter, first depth, depth, nodes or -1, king value,
 *        extensions, stop or None) -> (score, line, nodes, depth done or -1), as rules.search._Search.run:
 * the iterations from the first depth to the depth, the last complete one answering (-1: none did).  One
 * search at a time (the table is shared): a call while another thread's search runs is a RuntimeError. */
PyObject *Rules_search(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    static int busy;
    if (side_args(self, args, nargs, 12, &ci, &own, &opp, &kings) < 0)
        return NULL;
    long c_own = PyLong_AsLong(args[4]), c_opp = PyLong_AsLong(args[5]), first = PyLong_AsLong(args[6]);
    long depth = PyLong_AsLong(args[7]);
    long long limit = PyLong_AsLongLong(args[8]);
    long king = PyLong_AsLong(args[9]), extensions = PyLong_AsLong(args[10]);
    if (PyErr_Occurred())
        return NULL;
    if (depth < 0 || depth > 1000 || first < 0 || first > depth || extensions < 0 || extensions > MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "search depths must be 0 to 1000 (the first no deeper), extensions 0 to 64");
        return NULL;
    }
    if (busy) {
        PyErr_SetString(PyExc_RuntimeError, "a search is already running");
        return NULL;
    }
    Search *s = &state;
    s->stop = args[11] == Py_None ? NULL : args[11];
    s->r = self;
    s->nodes = 0;
    s->limit = limit;
    s->aborted = 0;
    memset(s->history, 0, sizeof s->history);
    s->king = (int)king;
    s->keys = zobrist_keys(self);
    s->side = zobrist_key(512);
    searches++;
    u128 white = ci ? opp : own, black = ci ? own : opp;
    uint64_t h = position_hash(s->keys, white, black, kings) ^ (ci ? s->side : 0);
    int cw = counter_in(self, c_own), cb = counter_in(self, c_opp);
    static Record line[MAX_PLY + 1];
    int line_len = 0, score = 0, done = -1;
    for (long d = first; d <= depth; d++) {
        busy = 1;
        int value = node(s, ci, own, opp, kings, cw, cb, h, (int)d, -INF, INF, 0, (int)extensions);
        busy = 0;
        if (s->aborted == 2)
            return PyErr_NoMemory();
        if (s->aborted == 3)
            return NULL;
        if (s->aborted)
            break;
        score = value;
        line_len = s->pvlen[0];
        memcpy(line, s->pv[0], (size_t)line_len * sizeof(Record));
        done = (int)d;
    }
    PyObject *found = line_list(self, line, line_len);
    return found == NULL ? NULL : Py_BuildValue("(iNLi)", score, found, s->nodes, done);    /* N: taken, even failing */
}
