/* The compiled core's capture generation: every complete capture of a side under every capture
 * rule, and the precedence laws that keep the lawful ones (see _rules.c for the board layout). */
#include "_core.h"

const int REVERSE[9] = {3, 2, 1, 0, 5, 4, 7, 6, 9};

static Record *push_record(Records *out) {
    if (out->count == out->size) {
        Py_ssize_t size = out->size ? out->size * 2 : 16;
        Record *items = PyMem_RawRealloc(out->items, (size_t)size * sizeof(Record));
        if (items == NULL) {
            out->failed = 1;
            return NULL;
        }
        out->items = items;
        out->size = size;
    }
    return &out->items[out->count++];
}

/* ---- capture generation (twin: pdn_tools.rules.bitboards._pure_capture_records) ---------- */

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
void capture_records(const Rules *r, int ci, u128 own, u128 opp, u128 kings, u128 starts,
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
void apply_law(const Rules *r, Records *recs, u128 kings) {
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
