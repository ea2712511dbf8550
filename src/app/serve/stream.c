/*
 * What the viewer's server streams (stream.h; the protocol, commands.h): the hello and
 * state texts, the metrics line and the binary frame's floats (cloth, the sphere, the
 * body and its effectors).  The viewer's start and end: viewer.c; the commands that
 * change the sim: commands.c.
 */
#include "app/serve/stream.h"
#include "app/serve/effectors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The controls' current values, the pins and the flags, into o. */
static void add_state(const cloth__viewer *v, cJSON *o)
{
    const cloth_scene *sc = cloth_sim_scene(v->sim);
    const cloth_mesh *m = cloth_sim_mesh(v->sim);
    cJSON *p = cJSON_AddObjectToObject(o, "params");
    cJSON_AddNumberToObject(p, "gravity", -sc->world.gravity[1]);
    cJSON_AddNumberToObject(p, "wind_x", sc->world.wind[0]);
    cJSON_AddNumberToObject(p, "wind_z", sc->world.wind[2]);
    cJSON_AddNumberToObject(p, "stiffness", v->stiffness);
    cJSON_AddNumberToObject(p, "damping", sc->world.air_damping);
    if (sc->sphere.enabled)
        cJSON_AddNumberToObject(p, "sphere_radius", sc->sphere.radius);
    else
        cJSON_AddNullToObject(p, "sphere_radius");
    cJSON_AddStringToObject(p, "kernel", sc->run.kernel);
    cJSON_AddNumberToObject(p, "substeps", sc->run.substeps);
    cloth_kernel_facts k = cloth__viewer_kernel(v);
    char key[128] = "", value[64];
    if (k.iteration_key)
        snprintf(key, sizeof key, "%s.%s", k.name, k.iteration_key);
    if (key[0] && cloth_scene_get(sc, key, value, sizeof value, NULL) == CLOTH_OK)
        cJSON_AddNumberToObject(p, "iterations", atof(value));
    else
        cJSON_AddNullToObject(p, "iterations");
    cJSON *pins = cJSON_AddArrayToObject(o, "pins");
    for (int i = 0; i < m->n; i++)
        if (m->pinned[i] && i != cloth_sim_grabbed(v->sim))
            cJSON_AddItemToArray(pins, cJSON_CreateNumber(i));
    cJSON_AddBoolToObject(o, "frozen", v->frozen);
    cJSON_AddBoolToObject(o, "diverged", v->diverged);
    cJSON_AddNumberToObject(o, "grabbed", cloth_sim_grabbed(v->sim));
    if (v->ik_joint >= 0)
        cJSON_AddStringToObject(o, "ik_joint", cloth__viewer_effector(v->ik_joint));
    else
        cJSON_AddNullToObject(o, "ik_joint");
    cJSON_AddNumberToObject(o, "sphere_offset", sc->sphere.offset);
    if (v->replay) {
        cJSON *rp = cJSON_AddObjectToObject(o, "playback");
        cJSON_AddNumberToObject(rp, "frame", v->replay_frame);
        cJSON_AddBoolToObject(rp, "playing", v->playing);
    }
}

static char *print_and_delete(cJSON *o)
{
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return text;
}

char *cloth__viewer_state(const cloth__viewer *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "state");
    add_state(v, o);
    return print_and_delete(o);
}

/* The mesh (triangles, initial positions), the kernels and the state. */
char *cloth__viewer_hello(const cloth__viewer *v, double max_fps)
{
    const cloth_mesh *m = cloth_sim_mesh(v->sim);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "hello");
    cJSON_AddNumberToObject(o, "n", m->n);
    cJSON_AddNumberToObject(o, "nx", m->nx);
    cJSON_AddNumberToObject(o, "ny", m->ny);
    cJSON_AddNumberToObject(o, "pick_radius", v->pick_radius);
    cJSON_AddNumberToObject(o, "max_fps", max_fps);
    cJSON_AddItemToObject(o, "triangles", cJSON_CreateIntArray(m->tris, 3 * m->n_tris));
    cJSON_AddItemToObject(o, "rest", cJSON_CreateDoubleArray(m->x0, 3 * m->n));
    cJSON *k = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; cloth_kernel_name(i); i++)
        cJSON_AddItemToArray(k, cJSON_CreateString(cloth_kernel_name(i)));
    if (v->body_n > 0) {
        cJSON *b = cJSON_AddObjectToObject(o, "body");
        cJSON_AddNumberToObject(b, "n", v->body_n);
        cJSON_AddItemToObject(b, "triangles", cJSON_CreateIntArray(v->body_tris,
                                                                   3 * v->body_n_tris));
    } else {
        cJSON_AddNullToObject(o, "body");
    }
    cJSON *e = cJSON_AddArrayToObject(o, "effectors");
    for (int i = 0; i < v->n_effectors; i++)
        cJSON_AddItemToArray(e, cJSON_CreateString(cloth__viewer_effector(i)));
    if (v->replay) {
        cJSON *rp = cJSON_AddObjectToObject(o, "replay");
        cJSON_AddNumberToObject(rp, "frames", v->replay_samples);
        cJSON_AddNumberToObject(rp, "fps", 1 / v->replay_dt);
    }
    add_state(v, o);
    return print_and_delete(o);
}

size_t cloth__viewer_metrics(const cloth__viewer *v, const cloth_frame *f, char *buf,
                             size_t size)
{
    /* JSON has no NaN: a diverged frame's numbers become null */
    char s[4][32];
    double vals[4] = {f->time, f->drift, f->stretch_max, f->wall_ms};
    for (int i = 0; i < 4; i++)
        if (isfinite(vals[i]))
            snprintf(s[i], sizeof s[i], "%.6g", vals[i]);
        else
            snprintf(s[i], sizeof s[i], "null");
    int len = snprintf(buf, size,
                       "{\"type\":\"frame\",\"frame\":%ld,\"time\":%s,\"drift\":%s,"
                       "\"stretch_max\":%s,\"iterations\":%ld,\"wall_ms\":%s,\"frozen\":%s}",
                       f->frame, s[0], s[1], s[2], f->iterations, s[3],
                       v->frozen ? "true" : "false");
    return len > 0 && (size_t)len < size ? (size_t)len : 0;
}

size_t cloth__viewer_frame_floats(const cloth__viewer *v)
{
    return 3 * (size_t)cloth_sim_mesh(v->sim)->n + 4 + 3 * (size_t)v->body_n +
           3 * (size_t)v->n_effectors;
}

void cloth__viewer_positions(const cloth__viewer *v, float *out)
{
    const double *x = cloth_sim_positions(v->sim);
    int n = cloth_sim_mesh(v->sim)->n;
    for (int i = 0; i < 3 * n; i++)
        out[i] = (float)x[i];
    double c[3] = {0, 0, 0}, radius = 0;
    cloth_sim_sphere(v->sim, c, &radius);
    for (int k = 0; k < 3; k++)
        out[3 * n + k] = (float)c[k];
    out[3 * n + 3] = (float)radius;
    float *body = out + 3 * n + 4;
    for (int i = 0; i < 3 * v->body_n; i++)
        body[i] = (float)v->body_x[i];
    float *ends = body + 3 * v->body_n;
    for (int e = 0; e < v->n_effectors; e++) {
        double p[3] = {0, 0, 0};
        cloth_avatar_joint(v->avatar, cloth__viewer_effector(e), p, NULL);
        for (int k = 0; k < 3; k++)
            ends[3 * e + k] = (float)p[k];
    }
}
