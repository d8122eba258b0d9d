/* The draw counters the compiled run replay keeps while it plays (see Counters in _replay.h;
 * twin: pdn_tools.rules.draws.DrawTracker.update). */
#include "_replay.h"

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
int count_ply(Counters *c, const Seen *after, int king, int captured) {
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

int counters_in(const Rules *r, Counters *c, PyObject *seen, PyObject *since, PyObject *quiet,
                PyObject *limits) {
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
    if (read_position(r, since, &c->since) < 0)
        return -1;
    Py_ssize_t i = 0;
    PyObject *key, *value;
    while (PyDict_Next(seen, &i, &key, &value)) {
        /* read_position may run Python code (a position of another class), which may change the dict: its
         * key and value held meanwhile */
        Py_INCREF(key);
        Py_INCREF(value);
        Seen entry;
        int failed = read_position(r, key, &entry) < 0;
        if (!failed) {
            entry.count = (int)PyLong_AsLong(value);
            failed = (entry.count == -1 && PyErr_Occurred()) || seen_add(&c->seen, &entry) < 0;
        }
        Py_DECREF(key);
        Py_DECREF(value);
        if (failed)
            return -1;
    }
    return 0;
}

/* Writes the counters back into the tracker's `seen` dict; the new `since` into *since_out. */
int counters_out(const Rules *r, PyObject *like, Counters *c, PyObject *seen, PyObject *since,
                 PyObject **since_out) {
    *since_out = Py_NewRef(since);
    if (!c->on)
        return 0;
    if (c->since_changed) {
        Py_DECREF(*since_out);
        *since_out = make_position(r, like, &c->since);
        if (*since_out == NULL)
            return -1;
    }
    if (!c->seen_changed)
        return 0;
    PyDict_Clear(seen);
    for (Py_ssize_t i = 0; i < c->seen.count; i++) {
        PyObject *key = make_position(r, like, &c->seen.items[i]);
        PyObject *count = key == NULL ? NULL : PyLong_FromLong(c->seen.items[i].count);
        int failed = count == NULL || PyDict_SetItem(seen, key, count) < 0;
        Py_XDECREF(key);
        Py_XDECREF(count);
        if (failed)
            return -1;
    }
    return 0;
}
