/* Private: the lines of events.jsonl, written by a session (session.c) and read back by
 * cloth_events_load (events.c), which own the format between them.
 *
 * events.jsonl holds one JSON object a line.  The first names the scene:
 *   {"clothbench":"events","version":1,"scene":"experiments/hanging.ini","sets":["k=v"]}
 * then one line an input, in the order they came, "frame" the frames stepped (or tried)
 * before it:
 *   {"frame":12,"op":"set","assignment":"world.wind=2 0 0"}
 *   {"frame":30,"op":"grab","origin":[x,y,z],"dir":[x,y,z],"radius":0.02}
 *   {"frame":31,"op":"drag","origin":[x,y,z],"dir":[x,y,z]}
 *   {"frame":40,"op":"release"}   {"frame":41,"op":"reset"}
 *   {"frame":50,"op":"pin","vertex":17,"on":true}
 *   {"frame":61,"op":"ik","joint":"l_wrist","target":[x,y,z],"chain":2}
 * and, when the session closed cleanly, {"frame":N,"op":"end"}.  Numbers are written with
 * %.17g, so a replay applies the very doubles the viewer did. */
#ifndef CLOTH_HARNESS_EVENTS_H
#define CLOTH_HARNESS_EVENTS_H

#include "cloth.h"

#include <stdio.h>

/* The header line: scene as given to the viewer, and its n_sets overrides. */
void cloth__events_put_header(FILE *f, const char *scene, const char *const *sets,
                              int n_sets);

/* One input's line, with in->frame as its "frame". */
void cloth__events_put_input(FILE *f, const cloth_input *in);

/* The end line: frames stepped (or tried) in the whole session. */
void cloth__events_put_end(FILE *f, long frames);

#endif
