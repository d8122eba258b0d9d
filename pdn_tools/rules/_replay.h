/* Shared by the run replay of the compiled core: one notated move and a run of Python elements
 * (_steps.c), Position and Move objects (_positions.c), the draw counters (_draws.c) and a run
 * kept as text (_replay.c). */
#ifndef PDN_TOOLS_REPLAY_H
#define PDN_TOOLS_REPLAY_H

#include "_core.h"

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

enum { P_VARIANT, P_TURN, P_RL, P_WHITE, P_BLACK, P_KINGS, P_CTR, P_FIELDS };
static const char *const POSITION_FIELDS[P_FIELDS] = {"variant", "turn", "_rl", "_white", "_black",
                                                      "_kings", "_ctr"};
enum { M_START, M_PATH, M_CAPTURED, M_PROMOTES, M_FIELDS };
static const char *const MOVE_FIELDS[M_FIELDS] = {"start", "path", "captured", "promotes"};

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

/* The slots of Position objects (see Rules_run), read once per call. */
typedef struct {
    PyTypeObject *type;
    Py_ssize_t at[P_FIELDS];
    PyObject *variant, *rl, *ctr;       /* borrowed from the run's first position */
    PyObject *turns[2];
} Positions;

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
PyObject *numbers_tuple(const Rules *r, const int8_t *squares, int len);

/* _positions.c */
int layout(PyTypeObject *type, const char *const *names, int count, Py_ssize_t *offsets);
PyObject *slotted(PyTypeObject *type, const Py_ssize_t *offsets, PyObject **values, int count);
int read_position(const Rules *r, const Positions *p, PyObject *position, Seen *out);
PyObject *make_position(const Rules *r, const Positions *p, const Seen *s);

/* _draws.c */
int count_ply(Counters *c, const Seen *after, int king, int captured);
int counters_in(const Rules *r, const Positions *p, Counters *c, PyObject *seen, PyObject *since,
                PyObject *quiet, PyObject *limits);
int counters_out(const Rules *r, const Positions *p, Counters *c, PyObject *seen, PyObject *since,
                 PyObject **since_out);

/* _replay.c */
PyObject *Rules_name_squares(Rules *self, PyObject *numbers);
PyObject *Rules_run_text(Rules *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *moves_hint(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
