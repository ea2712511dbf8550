/* Finding a kernel in a registry (sim/kernel.h). */
#include "sim/kernel.h"
#include "core/scene.h"
#include "core/status.h"

#include <stdio.h>
#include <string.h>

const cloth__kernel *cloth__registry_find(const cloth__registry *reg, const char *name)
{
    const cloth__kernel *k;
    for (int i = 0; (k = reg->at(i)) != NULL; i++)
        if (strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

int cloth__registry_slot(const cloth__registry *reg, const cloth__kernel *k)
{
    const cloth__kernel *at;
    for (int i = 0; (at = reg->at(i)) != NULL; i++)
        if (at == k)
            return i < CLOTH_MAX_KERNELS ? i : -1;
    return -1;
}

/* A CLOTH__KEY_CHOICE key's names from the scene's own key table ("off, particles, ..."
 * of the values whose bit is in `bits`) into buf. */
static void choices(const cloth__keyset *keys, const char *section, const char *name,
                    unsigned bits, char *buf, size_t size)
{
    const cloth__key *key = cloth__key_find(keys, section, name, NULL);
    size_t used = 0;
    buf[0] = '\0';
    for (int v = 0; key && key->choices && key->choices[v]; v++)
        if (bits & (1u << v))
            used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s",
                                     used ? ", " : "", key->choices[v]);
    if (!buf[0])
        snprintf(buf, size, "none");
}

static const char *choice_name(const cloth__keyset *keys, const char *section,
                               const char *name, int value)
{
    const cloth__key *key = cloth__key_find(keys, section, name, NULL);
    return key && key->choices ? key->choices[value] : "?";
}

static cloth_status refuse(const cloth__kernel *k, const cloth_scene *scene,
                           const cloth__keyset *keys, const char *section, const char *name,
                           const char *value, const char *supports, cloth_error *err)
{
    char where[CLOTH_PATH_MAX + 32];
    cloth__key_where(scene, cloth__key_index(keys, section, name), where, sizeof where);
    return cloth__fail(err, CLOTH_EINVAL, "%s: %s.%s = %s: kernel %s does not honour it (it "
                       "supports %s.%s = %s)", where, section, name, value, k->name, section,
                       name, supports);
}

cloth_status cloth__kernel_check(const cloth__kernel *k, const cloth_scene *scene,
                                 const cloth__keyset *keys, int n_tris, cloth_error *err)
{
    int own = k->contact == CLOTH__CONTACT_OWN;
    unsigned self = k->self_modes ? k->self_modes
                                  : own ? CLOTH__SELF_BIT(CLOTH_SELF_OFF) : CLOTH__SELF_ALL;
    unsigned obstacles = k->obstacles ? k->obstacles : own ? 0 : CLOTH__OBSTACLE_ALL;
    unsigned avatars = k->avatar_collisions ? k->avatar_collisions : ~0u;
    char list[160];
    if (!(self & CLOTH__SELF_BIT(scene->run.self_collision))) {
        choices(keys, "run", "self_collision", self, list, sizeof list);
        return refuse(k, scene, keys, "run", "self_collision",
                      choice_name(keys, "run", "self_collision", (int)scene->run.self_collision),
                      list, err);
    }
    static const struct {
        unsigned bit;
        const char *section;
    } obstacle[] = {{CLOTH__OBSTACLE_SPHERE, "sphere"},
                    {CLOTH__OBSTACLE_FLOOR, "plane"},
                    {CLOTH__OBSTACLE_AVATAR, "avatar"}};
    int asked[3] = {scene->sphere.enabled, scene->floor.enabled, scene->avatar.enabled};
    for (int o = 0; o < 3; o++)
        if (asked[o] && !(obstacles & obstacle[o].bit)) {
            size_t used = 0;
            list[0] = '\0';
            for (int q = 0; q < 3; q++)
                if (obstacles & obstacle[q].bit)
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s[%s]",
                                             used ? ", " : "", obstacle[q].section);
            return cloth__fail(err, CLOTH_EINVAL, "%s: [%s]: kernel %s does not honour this "
                               "obstacle (it supports %s)", scene->source,
                               obstacle[o].section, k->name, list[0] ? list : "none");
        }
    if (scene->avatar.enabled && !(avatars & (1u << scene->avatar.collision))) {
        choices(keys, "avatar", "collision", avatars, list, sizeof list);
        return refuse(k, scene, keys, "avatar", "collision",
                      choice_name(keys, "avatar", "collision", (int)scene->avatar.collision),
                      list, err);
    }
    if (k->needs_triangles && n_tris == 0) {
        char where[CLOTH_PATH_MAX + 32];
        cloth__key_where(scene, cloth__key_index(keys, "run", "kernel"), where, sizeof where);
        return cloth__fail(err, CLOTH_EINVAL, "%s: run.kernel = %s needs triangles: the mesh "
                           "has none (a chain; it supports meshes with triangles)", where,
                           k->name);
    }
    return CLOTH_OK;
}
