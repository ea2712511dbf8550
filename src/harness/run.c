/*
 * A run: frames of a sim written to a folder (SPEC 5).
 *
 *   series.csv   one row per frame, flushed every frame
 *   LOG          one row per iteration of an iterative kernel: the file its log table
 *                names (cloth_table_file), in its columns; with events, only while the
 *                kernel is the one the run started with
 *   final.obj    the last positions with the faces
 *   summary.csv  one row: settings and results, status ok | diverged | not-converged |
 *                step-failed
 *   cloth.pc2    with def.record: the positions of every frame (pc2.c), and cloth.obj,
 *                the topology they go with
 *   body.pc2     with def.record and an [avatar]: the body's drawing surface skinned to
 *                every frame's pose, and body.obj, its triangles
 *
 * With def.events the run is a replay of a viewer's session (events.c): its inputs are
 * applied between frames at the frame counts they came at.
 *
 * Every file is written as NAME.part and renamed when the run ends, so a run that is
 * killed leaves no half-written file under a final name, and a run that diverges or whose
 * step fails keeps every row it wrote (final.obj is then not written).
 */
#include "core/status.h"
#include "body/avatar.h"
#include "harness/files.h"
#include "sim/sim.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The rows of the last frame's iteration log (the kernel's table t). */
static void write_log_rows(FILE *f, cloth_table t, const cloth_sim *sim)
{
    const cloth_iter *rows;
    int n = cloth_sim_log(sim, &rows);
    for (int i = 0; i < n; i++) {
        cloth_table_write_row(f, t, &rows[i]);
        fputc('\n', f);
    }
}

/* One row of series.csv (columns.c). */
static void write_series_row(FILE *f, const cloth_frame *fr)
{
    cloth_table_write_row(f, CLOTH_TABLE_SERIES, fr);
    fputc('\n', f);
}

/* A table's header line. */
static void write_header(FILE *f, cloth_table t)
{
    cloth_table_write_header(f, t);
    fputc('\n', f);
}

/* Folds one frame into the summary; cond_sum/cond_count build the mean. */
static void accumulate(cloth_summary *s, const cloth_frame *fr, double *cond_sum,
                       long *cond_count)
{
    s->max_abs_drift = fmax(s->max_abs_drift, fabs(fr->drift));
    s->final_drift = fr->drift;
    s->max_stretch = fr->frame == 0 ? fr->stretch_max : fmax(s->max_stretch, fr->stretch_max);
    if (fr->has_gap)
        s->min_gap = isnan(s->min_gap) ? fr->min_gap : fmin(s->min_gap, fr->min_gap);
    if (fr->penetrations > s->max_penetrations)
        s->max_penetrations = fr->penetrations;
    if (fr->intersections > s->max_intersections)
        s->max_intersections = fr->intersections;
    if (fr->tunnelled > s->max_tunnelled)
        s->max_tunnelled = fr->tunnelled;
    if (fr->collision_passes > s->max_collision_passes)
        s->max_collision_passes = fr->collision_passes;
    if (fr->impact_zones > s->max_impact_zones)
        s->max_impact_zones = fr->impact_zones;
    s->total_iterations += fr->iterations;
    s->not_converged += fr->not_converged;
    s->stalled += fr->stalled;
    s->regularized += fr->regularized;
    s->lin_capped += fr->lin_capped;
    if (fr->has_cond) {
        s->cond_max = isnan(s->cond_max) ? fr->cond_max : fmax(s->cond_max, fr->cond_max);
        *cond_sum += fr->cond_max;
        if (*cond_count == 0)
            snprintf(s->cond_method, sizeof s->cond_method, "%s", fr->cond_method);
        else if (strcmp(s->cond_method, fr->cond_method) != 0)
            snprintf(s->cond_method, sizeof s->cond_method, "mixed");
        ++*cond_count;
    }
    s->wall_ms += fr->wall_ms;
}

static void report_progress(FILE *progress, const cloth_sim *sim, long frame, long frames)
{
    if (!progress || frames < 10 || frame % (frames / 10) != 0)
        return;
    fprintf(progress, "  %s: frame %ld/%ld (%3.0f%%)\n", sim->kernel->name, frame, frames,
            100.0 * frame / frames);
    fflush(progress);
}

/* ------------------------------------------------------------ recording */

/* The meshes a recording holds: the cloth, and the avatar's body when there is one
 * (its drawing surface skinned to each frame's pose). */
typedef struct recording {
    cloth_pc2_writer *cloth;    /* cloth.pc2, or NULL when not recording              */
    cloth_pc2_writer *body;     /* body.pc2, or NULL (not recording, or no avatar)    */
    double *body_x;             /* the body's surface at one frame (3 n)              */
} recording;

/* NAME.obj (a topology at positions x) and NAME.pc2 with x as sample 0. */
static cloth_status record_mesh(const char *out_dir, const char *name, const cloth_mesh *m,
                                const double *x, cloth_pc2_writer **w, cloth_error *err)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s.obj", out_dir, name);
    cloth_status st = cloth_mesh_write_obj(m, x, path, err);
    snprintf(path, sizeof path, "%s/%s.pc2", out_dir, name);
    if (st == CLOTH_OK)
        st = cloth_pc2_create(path, m->n, 0.0f, 1.0f, w, err);
    if (st == CLOTH_OK)
        st = cloth_pc2_append(*w, x, err);
    return st;
}

static cloth_status record_start(recording *rec, cloth_sim *sim, const char *out_dir,
                                 cloth_error *err)
{
    cloth_status st = record_mesh(out_dir, "cloth", sim->mesh, sim->x, &rec->cloth, err);
    cloth_avatar *av = cloth_sim_avatar(sim);
    if (st != CLOTH_OK || !av)
        return st;
    cloth_mesh body = {0}; /* only what the OBJ writer reads: counts and faces */
    const int *tris;
    body.n = cloth_avatar_surface_size(av, &tris, &body.n_tris);
    body.tris = (int *)tris;
    rec->body_x = malloc(sizeof(double) * 3 * (size_t)body.n);
    if (!rec->body_x)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the body's recording");
    cloth_avatar_surface(av, rec->body_x);
    return record_mesh(out_dir, "body", &body, rec->body_x, &rec->body, err);
}

static cloth_status record_frame(recording *rec, cloth_sim *sim, cloth_error *err)
{
    cloth_status st = rec->cloth ? cloth_pc2_append(rec->cloth, sim->x, err) : CLOTH_OK;
    if (st == CLOTH_OK && rec->body) {
        cloth_avatar_surface(cloth_sim_avatar(sim), rec->body_x);
        st = cloth_pc2_append(rec->body, rec->body_x, err);
    }
    return st;
}

/* Renames one cache into place, or on failure (st not OK) leaves it as .part. */
static cloth_status finish_cache(cloth_pc2_writer **w, cloth_status st, cloth_error *err)
{
    if (!*w)
        return st;
    if (st != CLOTH_OK)
        cloth_pc2_writer_destroy(*w);
    else
        st = cloth_pc2_finish(*w, err);
    *w = NULL;
    return st;
}

/* Renames the caches into place (st: the run's status so far, kept if not OK). */
static cloth_status record_finish(recording *rec, cloth_status st, cloth_error *err)
{
    st = finish_cache(&rec->cloth, st, err);
    st = finish_cache(&rec->body, st, err);
    free(rec->body_x);
    rec->body_x = NULL;
    return st;
}

/* ------------------------------------------------------------ inputs */

/* Applies the inputs due before the next frame (frame == done); a reset lets a halted
 * replay go on.  An input the sim refuses means the sim is not the recorded one. */
static cloth_status apply_due(cloth_sim *sim, const cloth_events *ev, int *next, long done,
                              int *halted, cloth_error *err)
{
    int n = ev ? cloth_events_count(ev) : 0;
    for (; *next < n; ++*next) {
        const cloth_input *in = cloth_events_input(ev, *next);
        if (in->frame != done)
            break;
        cloth_error why;
        if (cloth_sim_input(sim, in, NULL, &why) != CLOTH_OK)
            return cloth__fail(err, CLOTH_EINVAL, "%s:%d: %s", cloth_events_path(ev),
                               in->line, why.msg);
        if (in->kind == CLOTH_INPUT_RESET)
            *halted = 0;
    }
    return CLOTH_OK;
}

/* ------------------------------------------------------------ the run */

void cloth_default_output_def(cloth_output_def *def)
{
    memset(def, 0, sizeof *def);
}

cloth_status cloth_run_sim(cloth_sim *sim, const char *out_dir, FILE *progress,
                           cloth_summary *summary, cloth_error *err)
{
    cloth_output_def def;
    cloth_default_output_def(&def);
    def.progress = progress;
    return cloth_run_sim_with(sim, out_dir, &def, summary, err);
}

cloth_status cloth_run_sim_with(cloth_sim *sim, const char *out_dir,
                                const cloth_output_def *def, cloth_summary *summary,
                                cloth_error *err)
{
    FILE *progress = def->progress;
    const cloth_events *events = def->events;
    recording rec = {0};
    cloth_summary s = {.vertices = sim->mesh->n, .springs = sim->mesh->n_springs,
                       .dt = sim->scene.run.dt, .substeps = sim->scene.run.substeps,
                       .status = CLOTH_RUN_OK, .fail_frame = -1, .min_gap = NAN,
                       .cond_mean = NAN, .cond_max = NAN, .cond_method = "off"};
    snprintf(s.kernel, sizeof s.kernel, "%s", sim->kernel->name);
    double cond_sum = 0;
    long cond_count = 0;
    cloth__out_file series = {0}, itlog = {0}, sum = {0};
    /* the log of the kernel the run starts with: its table is the file's columns */
    cloth_table log_table = (cloth_table)(CLOTH_TABLE_LOG + sim->kernel_slot);
    const cloth__kernel *logged = cloth_table_file(log_table) ? sim->kernel : NULL;
    cloth_status st = cloth__make_dir(out_dir, err);
    if (st == CLOTH_OK)
        st = cloth__out_open(&series, out_dir, "series.csv", err);
    if (st == CLOTH_OK && logged)
        st = cloth__out_open(&itlog, out_dir, cloth_table_file(log_table), err);
    if (st != CLOTH_OK) {
        if (series.f) {
            fclose(series.f);
            remove(series.part);
        }
        return st;
    }
    write_header(series.f, CLOTH_TABLE_SERIES);
    if (itlog.f)
        write_header(itlog.f, log_table);

    char note[512];
    if (progress && cloth_sim_avatar(sim) &&
        cloth__avatar_motion_note(cloth_sim_avatar(sim), sim->scene.run.dt, note, sizeof note))
        fprintf(progress, "  %s\n", note); /* a clip's frame rate against the run's */
    cloth_frame fr;
    cloth_sim_measure(sim, &fr);
    write_series_row(series.f, &fr);
    accumulate(&s, &fr, &cond_sum, &cond_count);
    if (def->record)
        st = record_start(&rec, sim, out_dir, err);
    long frames = events ? cloth_events_frames(events) : sim->scene.run.frames;
    int next = 0, halted = 0;
    /* k frames stepped or tried; with events, a failed frame halts the sim (no row) until
     * a reset input, as the viewer waits for Reset */
    for (long k = 1; st == CLOTH_OK && k <= frames; k++) {
        st = apply_due(sim, events, &next, k - 1, &halted, err);
        if (st != CLOTH_OK || halted)
            break;
        cloth_error step_err;
        if (cloth_sim_frame(sim, &fr, &step_err) != CLOTH_OK) {
            if (s.fail_frame < 0) {
                s.status = sim->step_failed ? CLOTH_RUN_STEP_FAILED : CLOTH_RUN_DIVERGED;
                s.fail_frame = sim->frame + 1;
                snprintf(s.message, sizeof s.message, "%s", step_err.msg);
            }
            if (itlog.f && sim->kernel == logged)
                write_log_rows(itlog.f, log_table, sim);
            halted = 1;
            if (events && next < cloth_events_count(events))
                continue;
            break;
        }
        write_series_row(series.f, &fr);
        if (itlog.f && sim->kernel == logged)
            write_log_rows(itlog.f, log_table, sim);
        accumulate(&s, &fr, &cond_sum, &cond_count);
        s.frames++;
        report_progress(progress, sim, k, frames);
        st = record_frame(&rec, sim, err);
        /* rows reach the disk every frame; a write that fails (a full disk) ends the run
         * here rather than at the last frame, and closing the file names it */
        if (fflush(series.f) != 0 || (itlog.f && fflush(itlog.f) != 0))
            break;
    }
    /* inputs after the last frame change no row, but a replay still checks them */
    if (st == CLOTH_OK && !halted)
        st = apply_due(sim, events, &next, frames, &halted, err);
    /* the body moved faster than the cloth can follow: said in the summary's message */
    if (cloth_sim_avatar(sim) &&
        cloth__avatar_guard_note(cloth_sim_avatar(sim), sim->scene.run.dt, note, sizeof note)) {
        if (!s.message[0])
            snprintf(s.message, sizeof s.message, "%s", note);
        if (progress)
            fprintf(progress, "  warning: %s\n", note);
    }
    if (s.status == CLOTH_RUN_OK && s.not_converged > 0)
        s.status = CLOTH_RUN_NOT_CONVERGED;
    if (cond_count)
        s.cond_mean = cond_sum / cond_count;

    st = cloth__out_close(&series, st, err);
    st = cloth__out_close(&itlog, st, err);
    st = record_finish(&rec, st, err);
    if (s.fail_frame < 0) {
        char obj[1024];
        snprintf(obj, sizeof obj, "%s/final.obj", out_dir);
        if (st == CLOTH_OK)
            st = cloth_mesh_write_obj(sim->mesh, sim->x, obj, err);
    }
    if (st == CLOTH_OK)
        st = cloth__out_open(&sum, out_dir, "summary.csv", err);
    if (st == CLOTH_OK) {
        write_header(sum.f, CLOTH_TABLE_SUMMARY);
        cloth_table_write_row(sum.f, CLOTH_TABLE_SUMMARY, &s);
        fputc('\n', sum.f);
        st = cloth__out_close(&sum, st, err);
    }
    if (summary)
        *summary = s;
    return st;
}

cloth_status cloth_run(const cloth_scene *scene, const char *out_dir, FILE *progress,
                       cloth_summary *summary, cloth_error *err)
{
    cloth_sim *sim;
    cloth_status st = cloth_sim_create(scene, &sim, err);
    if (st != CLOTH_OK)
        return st;
    st = cloth_run_sim(sim, out_dir, progress, summary, err);
    cloth_sim_destroy(sim);
    return st;
}

/* run.done: the last file a run of a sweep gets, so its presence means summary.csv is
 * whole.  The message goes on one line (a newline in it would end the file's field). */
cloth_status cloth_run_mark_done(const char *out_dir, const char *id,
                                 const cloth_summary *summary, cloth_error *err)
{
    cloth__out_file done = {0};
    cloth_status st = cloth__out_open(&done, out_dir, "run.done", err);
    if (st != CLOTH_OK)
        return st;
    fprintf(done.f, "id %s\nmessage ", id);
    for (const char *c = summary->message; *c; c++)
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, done.f);
    fputc('\n', done.f);
    return cloth__out_close(&done, CLOTH_OK, err);
}
