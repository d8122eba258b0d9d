/* The compiled core's search of a run of moves kept as text (a MoveRun played as _replay.c plays
 * it) for a position, for filter --position. */
#include "_replay.h"

/* ---- a position looked for along a run ---------------------------------------------------- */
/* twin: pdn_tools.commands.archive._core_reaches, pdn_tools.commands.archive.reaches */

/* find_run(text, offset, position, number, last, wanted)
 *   -> (offset, plies, position after the last ply or None, found)
 * Plays a MoveRun's text from `offset` as write_run does (counting no draw), the plies numbered
 * on from `number` up to `last`, and stops after the first ply that leaves the position `wanted`
 * (found True: its pieces and side to move are wanted's, as Position.__eq__ compares them on one
 * variant), at the first move it leaves (offset = where it starts) or after ply `last`.  No
 * object is made per ply; the position after the last ply is made once. */
PyObject *Rules_find_run(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyUnicode_Check(args[0]) || !PyUnicode_IS_ASCII(args[0])) {
        PyErr_SetString(PyExc_TypeError, "find_run(text: ASCII str, offset, position, number, last, wanted)");
        return NULL;
    }
    const char *text = (const char *)PyUnicode_DATA(args[0]);
    Py_ssize_t len = PyUnicode_GET_LENGTH(args[0]), pos = PyLong_AsSsize_t(args[1]);
    long number = PyErr_Occurred() ? 0 : PyLong_AsLong(args[3]);      /* no __index__ run with an error set */
    long last = PyErr_Occurred() ? 0 : PyLong_AsLong(args[4]), first = number;
    Seen now, wanted;
    if (PyErr_Occurred() || read_position(self, args[2], &now) < 0 || read_position(self, args[5], &wanted) < 0)
        return NULL;
    if (pos < 0 || pos > len) {
        PyErr_SetString(PyExc_ValueError, "find_run: offset out of the text");
        return NULL;
    }
    Records recs = {NULL, 0, 0, 0};
    int found = 0;
    while (!found && number < last && !self->limit) {
        Py_ssize_t end;
        int squares[MAX_PATH], count, capture;
        if (!next_move(self, text, len, &pos, &end, squares, &count, &capture))
            break;
        int ci = now.turn, promotes = 0;
        u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
        Record rec;
        int played = play_item(self, ci, &own, &opp, &kings, squares, count, capture, &recs, &rec, &promotes);
        if (played < 0) {
            records_free(&recs);
            return NULL;
        }
        if (!played)
            break;
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        found = next.white == wanted.white && next.black == wanted.black && next.kings == wanted.kings
                && next.turn == wanted.turn;
        now = next;
        number++;
        pos = end;
    }
    records_free(&recs);
    PyObject *after = number > first ? make_position(self, args[2], &now) : Py_NewRef(Py_None);
    return after == NULL ? NULL : Py_BuildValue("(nlNO)", pos, number - first, after, found ? Py_True : Py_False);
}
