/*
 * The viewer's state beside the sim (viewer.h): its start and end, the one entry point
 * of a page's changes to the sim, and the error reply every file of app/serve sends.
 */
#include "app/serve/viewer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cloth__viewer_init(cloth__viewer *v, cloth_sim *sim)
{
    memset(v, 0, sizeof *v);
    v->sim = sim;
    v->stiffness = 1;
    v->ik_joint = -1;
    const cloth_scene *sc = cloth_sim_scene(sim);
    for (int f = 0; f < CLOTH_FAMILIES; f++)
        v->k_scene[f] = sc->material.k[f];
    cloth_kernel_facts k;
    for (int i = 0; i < CLOTH__VIEW_KERNELS && cloth_kernel_info(i, &k) == CLOTH_OK; i++) {
        char key[128], value[64];
        if (!k.stiffness_key)
            continue;
        snprintf(key, sizeof key, "%s.%s", k.name, k.stiffness_key);
        if (cloth_scene_get(sc, key, value, sizeof value, NULL) == CLOTH_OK)
            v->k_own[i] = atof(value);
    }
    /* the mass-spring cloth paper's small spheres: a third of the grid spacing, from the
     * mesh size */
    const cloth_mesh *m = cloth_sim_mesh(sim);
    double cell = m->n > 1 ? sqrt(m->area > 0 ? 2 * m->area / fmax(1, m->n_tris) : 0) : 0;
    v->pick_radius = cell > 0 ? 0.4 * cell : 0.05 * fmax(m->rest_diag, 1e-3);
    v->avatar = cloth_sim_avatar(sim);
    if (!v->avatar)
        return 0;
    v->body_n = cloth_avatar_surface_size(v->avatar, &v->body_tris, &v->body_n_tris);
    v->n_effectors = CLOTH__VIEW_EFFECTORS;
    v->body_x = malloc(sizeof(double) * 3 * (size_t)v->body_n);
    if (!v->body_x)
        return -1;
    cloth_avatar_surface(v->avatar, v->body_x);
    return 0;
}

void cloth__viewer_free(cloth__viewer *v)
{
    free(v->replay_buf);
    free(v->body_x);
    free(v->body_sample);
    v->replay_buf = NULL;
    v->body_x = NULL;
    v->body_sample = NULL;
}

static void reply_json(cloth__reply *r, cJSON *o)
{
    char *text = cJSON_PrintUnformatted(o);
    if (text && strlen(text) < sizeof r->text)
        memcpy(r->text, text, strlen(text) + 1);
    else /* out of memory, or a message that cannot happen for our replies */
        snprintf(r->text, sizeof r->text, "{\"type\":\"error\",\"message\":\"reply lost\"}");
    cJSON_free(text);
    cJSON_Delete(o);
}

void cloth__reply_error(cloth__reply *r, const char *fmt, ...)
{
    char msg[CLOTH_MSG_MAX + 200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "error");
    cJSON_AddStringToObject(o, "message", msg);
    reply_json(r, o);
}

/* Every change the page makes to the sim goes through here as a cloth_input, the one
 * entry point the replay uses too; with a session it is also recorded (events.jsonl).
 * 1 when the sim took it; otherwise the page is told why. */
int cloth__viewer_input(cloth__viewer *v, const cloth_input *in, int *vertex, cloth__reply *r)
{
    cloth_error err;
    cloth_status st = v->session ? cloth_session_input(v->session, in, vertex, &err)
                                 : cloth_sim_input(v->sim, in, vertex, &err);
    if (st != CLOTH_OK) {
        cloth__reply_error(r, "%s", err.msg);
        return 0;
    }
    return 1;
}

cloth_kernel_facts cloth__viewer_kernel(const cloth__viewer *v)
{
    cloth_kernel_facts f = {0};
    cloth_kernel_info(cloth_kernel_find(cloth_sim_scene(v->sim)->run.kernel), &f);
    return f;
}
