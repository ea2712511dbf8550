/*
 * A viewer's inputs: applied (cloth_sim_input), recorded with the frames (a session:
 * events.jsonl, its lines in harness/events.h, beside series.csv) for a headless replay
 * (run.c with def.events, reading them back with cloth_events_load).
 *
 * Why the same series: every input reaches the sim between two frames, through
 * cloth_sim_input in the viewer and in the replay alike, and the sim is deterministic;
 * so the same inputs before the same frame give the same states.  Freezing the viewer
 * steps nothing, so it needs no line.
 */
#include "core/status.h"
#include "harness/events.h"
#include "harness/files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- applying */

/* One call of the avatar's CCD IK (an unreachable target is no error: the pose is the
 * closest found, as in the viewer). */
static cloth_status apply_ik(cloth_sim *sim, const cloth_input *in, cloth_error *err)
{
    cloth_avatar *av = cloth_sim_avatar(sim);
    if (!av)
        return cloth__fail(err, CLOTH_EINVAL, "ik: the scene has no [avatar]");
    cloth_ik_result res;
    return cloth_avatar_ik(av, in->joint, in->target, in->chain, &res, err);
}

cloth_status cloth_sim_input(cloth_sim *sim, const cloth_input *in, int *vertex,
                             cloth_error *err)
{
    int grabbed = -1;
    cloth_status st = CLOTH_OK;
    switch (in->kind) {
    case CLOTH_INPUT_SET:
        st = cloth_sim_set(sim, in->assignment, err);
        break;
    case CLOTH_INPUT_GRAB:
        st = cloth_sim_grab(sim, in->origin, in->dir, in->radius, &grabbed, err);
        break;
    case CLOTH_INPUT_DRAG:
        st = cloth_sim_drag(sim, in->origin, in->dir, err);
        break;
    case CLOTH_INPUT_RELEASE:
        cloth_sim_release(sim);
        break;
    case CLOTH_INPUT_PIN:
        st = cloth_sim_pin(sim, in->vertex, in->on, err);
        break;
    case CLOTH_INPUT_RESET:
        cloth_sim_reset(sim);
        break;
    case CLOTH_INPUT_IK:
        st = apply_ik(sim, in, err);
        break;
    default:
        st = cloth__fail(err, CLOTH_EINVAL, "input: unknown kind %d", (int)in->kind);
    }
    if (vertex)
        *vertex = grabbed;
    return st;
}

/* ------------------------------------------------------------- sessions */

struct cloth_session {
    cloth_sim *sim;
    cloth__out_file events;     /* events.jsonl(.part)                                */
    cloth__out_file series;     /* series.csv(.part)                                  */
    long frames;                /* frames stepped or tried                            */
};

static cloth_status flushed(cloth__out_file *o, cloth_error *err)
{
    if (ferror(o->f) || fflush(o->f) != 0)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", o->part, strerror(errno));
    return CLOTH_OK;
}

cloth_status cloth_session_open(cloth_sim *sim, const char *dir, const char *scene_path,
                                const char *const *sets, int n_sets, cloth_session **out,
                                cloth_error *err)
{
    *out = NULL;
    cloth_session *s = calloc(1, sizeof *s);
    if (!s)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory");
    s->sim = sim;
    cloth_status st = cloth__make_dir(dir, err);
    if (st == CLOTH_OK)
        st = cloth__out_open(&s->events, dir, "events.jsonl", err);
    if (st == CLOTH_OK)
        st = cloth__out_open(&s->series, dir, "series.csv", err);
    if (st != CLOTH_OK) {
        if (s->events.f) {
            fclose(s->events.f);
            remove(s->events.part);
        }
        free(s);
        return st;
    }
    cloth__events_put_header(s->events.f, scene_path, sets, n_sets);
    cloth_frame fr;
    cloth_sim_measure(sim, &fr);
    cloth_table_write_header(s->series.f, CLOTH_TABLE_SERIES);
    fputc('\n', s->series.f);
    cloth_table_write_row(s->series.f, CLOTH_TABLE_SERIES, &fr);
    fputc('\n', s->series.f);
    st = flushed(&s->events, err);
    if (st == CLOTH_OK)
        st = flushed(&s->series, err);
    if (st != CLOTH_OK) {
        cloth_session_close(s, NULL);
        return st;
    }
    *out = s;
    return CLOTH_OK;
}

cloth_status cloth_session_input(cloth_session *s, const cloth_input *in, int *vertex,
                                 cloth_error *err)
{
    cloth_status st = cloth_sim_input(s->sim, in, vertex, err);
    if (st != CLOTH_OK)
        return st;
    cloth_input line = *in;
    line.frame = s->frames;
    cloth__events_put_input(s->events.f, &line);
    return flushed(&s->events, err);
}

cloth_status cloth_session_frame(cloth_session *s, cloth_frame *out, cloth_error *err)
{
    s->frames++;
    cloth_status st = cloth_sim_frame(s->sim, out, err);
    if (st != CLOTH_OK)
        return st;
    cloth_table_write_row(s->series.f, CLOTH_TABLE_SERIES, out);
    fputc('\n', s->series.f);
    return flushed(&s->series, err);
}

cloth_status cloth_session_close(cloth_session *s, cloth_error *err)
{
    if (!s)
        return CLOTH_OK;
    cloth__events_put_end(s->events.f, s->frames);
    cloth_status st = cloth__out_close(&s->events, CLOTH_OK, err);
    st = cloth__out_close(&s->series, st, err);
    free(s);
    return st;
}
