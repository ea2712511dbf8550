/*
 * Scene files: a strict INI reader over one table of keys.
 *
 *   [section]          # comment
 *   key = value        # vectors are three numbers separated by spaces
 *
 * Every key is a row of a cloth__key table (kernel-independent keys below, kernel keys
 * in each kernel's folder, handed in by the caller as a cloth__keyset: the core knows no
 * kernel).  A common key lives in cloth_scene; the i-th kernel's keys live in the scene's
 * settings block kernel[i], laid out by that kernel.  Defaults are the rows' default texts run through the same
 * parser, so `cloth list`, docs/keys.md and the code cannot disagree.  Anything the table
 * does not accept is an error naming FILE:LINE: key.
 */
#include "core/ini.h"
#include "core/scene.h"
#include "core/status.h"
#include "core/values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(T, scene, key) ((T *)((char *)(scene) + (key)->offset))

/* ------------------------------------------------------------ custom values */

static int parse_springs(void *owner, const char *value, char *why, size_t n)
{
    cloth_scene *s = owner;
    static const char *const names[CLOTH_FAMILIES] = {"structural", "shear", "bend"};
    unsigned mask = 0;
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " \t,");
        int found = -1;
        for (int f = 0; f < CLOTH_FAMILIES; f++)
            if (strlen(names[f]) == len && strncmp(p, names[f], len) == 0)
                found = f;
        if (found < 0) {
            snprintf(why, n, "unknown spring family '%.*s' (structural, shear, bend)",
                     (int)len, p);
            return 1;
        }
        mask |= 1u << found;
        p += len;
    }
    if (mask == 0) {
        snprintf(why, n, "needs at least one of structural, shear, bend");
        return 1;
    }
    s->mesh.families = mask;
    return 0;
}

static int parse_pins(void *owner, const char *value, char *why, size_t n)
{
    cloth_scene *s = owner;
    static const struct { const char *name; cloth_pin_mode mode; } modes[] = {
        {"none", CLOTH_PINS_NONE},
        {"top-row", CLOTH_PINS_TOP_ROW},
        {"top-corners", CLOTH_PINS_TOP_CORNERS},
        {"corners", CLOTH_PINS_CORNERS},
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
        if (strcmp(value, modes[m].name) == 0) {
            s->mesh.pins = modes[m].mode;
            s->mesh.n_pin_list = 0;
            return 0;
        }
    int count = 0;
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        char *end;
        errno = 0;
        long idx = strtol(p, &end, 10);
        if (end == p || (*end && !strchr(" \t,", *end))) {
            snprintf(why, n,
                     "expected top-row, top-corners, corners, none or vertex indices, "
                     "got '%s'", value);
            return 1;
        }
        if (idx < 0 || idx > 1000000000L || errno) {
            snprintf(why, n, "vertex index %ld is out of range", idx);
            return 1;
        }
        if (count == CLOTH_MAX_PINS) {
            snprintf(why, n, "more than %d pinned indices", CLOTH_MAX_PINS);
            return 1;
        }
        s->mesh.pin_list[count++] = (int)idx;
        p = end;
    }
    if (count == 0) {
        snprintf(why, n, "expected top-row, top-corners, corners, none or vertex indices");
        return 1;
    }
    s->mesh.pins = CLOTH_PINS_LIST;
    s->mesh.n_pin_list = count;
    return 0;
}

static int parse_motion(void *owner, const char *value, char *why, size_t n)
{
    cloth_scene *s = owner;
    cloth_sphere_def *sp = &s->sphere;
    if (strcmp(value, "static") == 0) {
        sp->motion = CLOTH_MOTION_STATIC;
        return 0;
    }
    if (strncmp(value, "orbit", 5) == 0 && isspace((unsigned char)value[5])) {
        double v[2];
        if (cloth__read_numbers(value + 5, v, 2) || v[0] < 0 || v[1] <= 0) {
            snprintf(why, n, "expected 'orbit A T' with A >= 0 and T > 0");
            return 1;
        }
        sp->motion = CLOTH_MOTION_ORBIT;
        sp->amplitude = v[0];
        sp->period = v[1];
        return 0;
    }
    if (strncmp(value, "path", 4) == 0 && isspace((unsigned char)value[4])) {
        double v[7];
        if (cloth__read_numbers(value + 4, v, 7) || v[6] <= 0) {
            snprintf(why, n, "expected 'path x0 y0 z0 x1 y1 z1 T' with T > 0");
            return 1;
        }
        sp->motion = CLOTH_MOTION_PATH;
        memcpy(sp->path, v, sizeof sp->path);
        sp->period = v[6];
        return 0;
    }
    snprintf(why, n, "expected static, 'orbit A T' or 'path x0 y0 z0 x1 y1 z1 T'");
    return 1;
}

/* Two numbers: the shift along the plane's two axes (x and y for plane xy, x and z for
 * xz); three: a world vector, which must then lie in the plane (mesh.c checks it, once
 * the plane is known: keys may come in any order). */
static int parse_layer_shift(void *owner, const char *value, char *why, size_t n)
{
    cloth_scene *s = owner;
    double v[3] = {0, 0, 0};
    int dims = cloth__read_numbers(value, v, 2) == 0 ? 2
               : cloth__read_numbers(value, v, 3) == 0 ? 3 : 0;
    if (!dims) {
        snprintf(why, n, "expected two finite numbers (along the plane's axes) or three (a "
                         "vector in the plane), got '%s'", value);
        return 1;
    }
    memcpy(s->mesh.layer_shift, v, sizeof v);
    s->mesh.layer_shift_dims = dims;
    return 0;
}

/* A duration or length that may be "auto" (stored as -1). */
static int parse_auto(double *out, const char *value, const char *unit, char *why, size_t n)
{
    if (strcmp(value, "auto") == 0) {
        *out = -1;
        return 0;
    }
    double v;
    if (cloth__read_numbers(value, &v, 1) || v < 0) {
        snprintf(why, n, "expected auto or a number >= 0 (%s), got '%s'", unit, value);
        return 1;
    }
    *out = v;
    return 0;
}

static int parse_blend_in(void *owner, const char *value, char *why, size_t n)
{
    return parse_auto(&((cloth_scene *)owner)->avatar.blend_in, value, "s", why, n);
}

static int parse_max_skin_step(void *owner, const char *value, char *why, size_t n)
{
    return parse_auto(&((cloth_scene *)owner)->avatar.max_skin_step, value, "m", why, n);
}

/* ----------------------------------------------------------- the key table */

#define OFF(field) offsetof(cloth_scene, field)
#define INF HUGE_VAL

static const char *const plane_names[] = {"xy", "xz", NULL};
static const char *const self_collision_names[] = {"off", "on", "proximity", "particles", NULL};
static const char *const sew_on_names[] = {"air", "body", NULL};
static const char *const avatar_collisions[] = {"sdf", "capsules", "ellipsoids", NULL};
static const char *const avatar_off_on[] = {"off", "on", NULL};
static const char *const clip_end_names[] = {"auto", "hold", "loop", "blend", NULL};
static const char *const pins_follow_names[] = {"auto", "body", "world", NULL};

static const cloth__key common_keys[] = {
    {.section = "mesh", .name = "nx", .type = CLOTH__KEY_INT, .offset = OFF(mesh.nx), .lo = 1,
     .hi = 100000, .def = "30", .help = "vertices along x (1 makes a chain)"},
    {.section = "mesh", .name = "ny", .type = CLOTH__KEY_INT, .offset = OFF(mesh.ny), .lo = 1,
     .hi = 100000, .def = "24", .help = "vertices along the second axis (row 0 is the top)"},
    {.section = "mesh", .name = "spacing", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(mesh.spacing), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "0.1",
     .help = "rest distance between grid neighbours (m)"},
    {.section = "mesh", .name = "plane", .type = CLOTH__KEY_CHOICE, .offset = OFF(mesh.plane),
     .choices = plane_names, .def = "xy",
     .help = "xy hangs (rows go down -y), xz lies (rows go +z)"},
    {.section = "mesh", .name = "origin", .type = CLOTH__KEY_VEC3, .offset = OFF(mesh.origin),
     .def = "0 0 0", .help = "position of vertex 0 (m)"},
    {.section = "mesh", .name = "prestretch", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(mesh.prestretch), .lo = -1, .hi = 10, .lo_open = 1, .def = "0",
     .help = "initial positions use spacing*(1+prestretch); rest lengths use spacing"},
    {.section = "mesh", .name = "springs", .type = CLOTH__KEY_CUSTOM, .parse = parse_springs,
     .def = "structural,shear,bend", .help = "spring families to build"},
    {.section = "mesh", .name = "pins", .type = CLOTH__KEY_CUSTOM, .parse = parse_pins,
     .def = "top-row", .help = "top-row | top-corners | corners | none | vertex indices"},
    {.section = "mesh", .name = "obj", .type = CLOTH__KEY_STRING, .offset = OFF(mesh.obj),
     .size = sizeof(((cloth_mesh_def *)0)->obj), .def = "",
     .help = "OBJ file to load instead of the grid (relative to the scene)"},
    {.section = "mesh", .name = "garment", .type = CLOTH__KEY_STRING,
     .offset = OFF(mesh.garment), .size = sizeof(((cloth_mesh_def *)0)->garment), .def = "",
     .help = "sewing pattern (JSON, relative to the scene) whose sewn garment is the mesh"},
    {.section = "mesh", .name = "pins_follow", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(mesh.pins_follow), .choices = pins_follow_names, .def = "auto",
     .help = "with an [avatar]: body (the pins move rigidly with the joint of the skin nearest "
     "them, the one nearest the root, kept the offset out), world (fixed); auto: body when "
     "every pin starts within 10 cm of the skin"},
    {.section = "mesh", .name = "layers", .type = CLOTH__KEY_INT, .offset = OFF(mesh.layers),
     .lo = 1, .hi = 10000, .def = "1",
     .help = "copies of the grid stacked along the plane's normal (+z for xy, +y for xz)"},
    {.section = "mesh", .name = "layer_gap", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(mesh.layer_gap), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1,
     .def = "0.05", .help = "distance between neighbouring layers along the normal (m)"},
    {.section = "mesh", .name = "layer_shift", .type = CLOTH__KEY_CUSTOM,
     .parse = parse_layer_shift, .def = "0 0",
     .help = "in-plane shift of each layer from the one below: 2 numbers along the plane's "
     "axes or a 3-vector (m)"},
    {.section = "mesh", .name = "jitter", .type = CLOTH__KEY_DOUBLE, .offset = OFF(mesh.jitter),
     .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "each layer's initial height moves by a uniform draw in [-jitter, jitter] from "
     "run.seed (m)"},

    {.section = "material", .name = "k_structural", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.k[CLOTH_STRUCTURAL]), .lo = 0, .hi = INF, .hi_open = 1,
     .def = "500", .help = "stiffness of structural springs (N/m)"},
    {.section = "material", .name = "k_shear", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.k[CLOTH_SHEAR]), .lo = 0, .hi = INF, .hi_open = 1, .def = "200",
     .help = "stiffness of shear springs (N/m)"},
    {.section = "material", .name = "k_bend", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.k[CLOTH_BEND]), .lo = 0, .hi = INF, .hi_open = 1, .def = "50",
     .help = "stiffness of bend springs (N/m)"},
    {.section = "material", .name = "vertex_mass", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.vertex_mass), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1,
     .def = "0.01", .help = "mass of every vertex (kg) when density is 0"},
    {.section = "material", .name = "density", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.density), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "area density (kg/m^2); > 0 lumps a third of each triangle's mass"},
    {.section = "material", .name = "spring_damping", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.spring_damping), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "c_d of F = -c_d ((v_i - v_j).u) u (N s/m)"},
    {.section = "material", .name = "thickness", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.thickness), .lo = 0, .hi = INF, .hi_open = 1, .def = "0.01",
     .help = "cloth-cloth contact distance with run.self_collision (m)"},
    {.section = "material", .name = "self_friction", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(material.self_friction), .lo = 0, .hi = 1, .def = "0.5",
     .help = "fraction of a self-colliding pair's relative velocity removed per step, in [0, "
     "1]"},

    {.section = "world", .name = "gravity", .type = CLOTH__KEY_VEC3,
     .offset = OFF(world.gravity), .def = "0 -9.81 0",
     .help = "gravitational acceleration (m/s^2)"},
    {.section = "world", .name = "wind", .type = CLOTH__KEY_VEC3, .offset = OFF(world.wind),
     .def = "0 0 0", .help = "mean wind velocity (m/s)"},
    {.section = "world", .name = "turbulence", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(world.turbulence), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "t of w (1 + t n(t,x)), n a smooth noise in [-1,1] seeded by run.seed"},
    {.section = "world", .name = "air_density", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(world.air_density), .lo = 0, .hi = INF, .hi_open = 1, .def = "1.2",
     .help = "rho_air of the triangle drag force (kg/m^3)"},
    {.section = "world", .name = "drag_coefficient", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(world.drag_coefficient), .lo = 0, .hi = INF, .hi_open = 1, .def = "1",
     .help = "C_d of the triangle drag force"},
    {.section = "world", .name = "air_damping", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(world.air_damping), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "c of F = -c v per vertex (N s/m)"},

    {.section = "sphere", .name = "center", .type = CLOTH__KEY_VEC3,
     .offset = OFF(sphere.center), .def = "0 0 0", .help = "centre, or the orbit's centre (m)"},
    {.section = "sphere", .name = "radius", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(sphere.radius), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "0.5",
     .help = "radius (m)"},
    {.section = "sphere", .name = "offset", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(sphere.offset), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "skin thickness added to the radius (m)"},
    {.section = "sphere", .name = "motion", .type = CLOTH__KEY_CUSTOM, .parse = parse_motion,
     .def = "static", .help = "static | orbit A T | path x0 y0 z0 x1 y1 z1 T (back and forth)"},
    {.section = "sphere", .name = "spin", .type = CLOTH__KEY_DOUBLE, .offset = OFF(sphere.spin),
     .lo = -INF, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "0",
     .help = "angular velocity about the world y axis through the centre (rad/s; for "
     "friction)"},

    {.section = "garment", .name = "weld_distance", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(garment.weld_distance), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1,
     .def = "0.001", .help = "seams are welded once every vertex pair is closer (m)"},
    {.section = "garment", .name = "max_frames", .type = CLOTH__KEY_INT,
     .offset = OFF(garment.max_frames), .lo = 1, .hi = 10000000, .def = "3000",
     .help = "sewing frames at most before giving up"},
    {.section = "garment", .name = "sew_damping", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(garment.sew_damping), .lo = 0, .hi = INF, .hi_open = 1, .def = "1",
     .help = "air damping c of F = -c v while sewing, in place of world.air_damping (N s/m)"},
    {.section = "garment", .name = "sew_on", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(garment.sew_on_body), .choices = sew_on_names, .def = "body",
     .help = "body: the panels close round the scene's avatar; air: without it (then dressed "
     "at the start)"},

    {.section = "plane", .name = "height", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(floor.height), .lo = -INF, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "0",
     .help = "the floor is y = height (m)"},
    {.section = "plane", .name = "offset", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(floor.offset), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "skin thickness above the floor (m)"},

    {.section = "avatar", .name = "model", .type = CLOTH__KEY_STRING,
     .offset = OFF(avatar.model), .size = sizeof(((cloth_avatar_def *)0)->model),
     .def = "builtin",
     .help = "the body: builtin (the 1.75 m mannequin of src/body/mannequin.c) or an OBJ "
     "surface (relative to the scene; needs avatar.skeleton)"},
    {.section = "avatar", .name = "skeleton", .type = CLOTH__KEY_STRING,
     .offset = OFF(avatar.skeleton), .size = sizeof(((cloth_avatar_def *)0)->skeleton),
     .def = "",
     .help = "the OBJ body's skeleton: a BVH file whose HIERARCHY gives the rest pose "
     "(relative to the scene)"},
    {.section = "avatar", .name = "scale", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(avatar.scale), .lo = 0, .hi = 10, .lo_open = 1, .def = "1",
     .help = "size of the body (1: 1.75 m tall, feet on y = 0, facing +z; an OBJ body: its "
     "units times scale)"},
    {.section = "avatar", .name = "motion", .type = CLOTH__KEY_STRING,
     .offset = OFF(avatar.motion), .size = sizeof(((cloth_avatar_def *)0)->motion), .def = "",
     .help = "BVH clip moving the body, after avatar.blend_in, then avatar.clip_end (relative "
     "to the scene; one frame: a pose); empty: avatar.pose"},
    {.section = "avatar", .name = "pose", .type = CLOTH__KEY_STRING, .offset = OFF(avatar.pose),
     .size = sizeof(((cloth_avatar_def *)0)->pose), .def = "t",
     .help = "static pose without a motion: t (rest), a (arms 45 degrees down), arms_raised "
     "(60 degrees up) or a BVH file of one frame"},
    {.section = "avatar", .name = "offset", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(avatar.offset), .lo = 0, .hi = 1, .def = "0.01",
     .help = "skin thickness: vertices are kept this far from the body (m)"},
    {.section = "avatar", .name = "sdf_resolution", .type = CLOTH__KEY_INT,
     .offset = OFF(avatar.sdf_resolution), .lo = 8, .hi = 1024, .def = "128",
     .help = "cells of the rest-pose distance field along the body's longest side"},
    {.section = "avatar", .name = "collision", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(avatar.collision), .choices = avatar_collisions, .def = "sdf",
     .help = "sdf (field through the skinning back-transform), capsules (exact posed capsules) "
     "or ellipsoids (bounds per bone, point-triangle inside)"},
    {.section = "avatar", .name = "ik_max_step", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(avatar.ik_max_step), .lo = 0, .hi = 10, .lo_open = 1, .def = "0.01",
     .help = "largest move of an IK end effector per call (m)"},
    {.section = "avatar", .name = "joint_map", .type = CLOTH__KEY_STRING,
     .offset = OFF(avatar.joint_map), .size = sizeof(((cloth_avatar_def *)0)->joint_map),
     .def = "",
     .help = "a clip's joints onto the body's, one 'clip_joint body_joint' a line (relative to "
     "the scene), for a naming not built in; empty: CMU, Mixamo or the body's own names, "
     "recognised from the clip"},
    {.section = "avatar", .name = "keep_root_offset", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(avatar.keep_root_offset), .choices = avatar_off_on, .def = "off",
     .help = "on: the clip plays where it was recorded; off: its first frame's horizontal root "
     "position is taken away"},
    {.section = "avatar", .name = "motion_scale", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(avatar.motion_scale), .lo = 0, .hi = 1e6, .def = "0",
     .help = "body metres per unit of the clip; 0: the ratio of the body's hip height to the "
     "clip's at rest (the body's own names: avatar.scale)"},
    {.section = "avatar", .name = "blend_in", .type = CLOTH__KEY_CUSTOM,
     .parse = parse_blend_in, .def = "auto",
     .help = "seconds from the rest pose to the clip's first pose (slerp joint by joint); "
     "auto: the shortest keeping every skin point under half of avatar.max_skin_step a "
     "substep"},
    {.section = "avatar", .name = "clip_end", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(avatar.clip_end), .choices = clip_end_names, .def = "auto",
     .help = "after the clip's last frame: hold (the last pose), loop (wrap), blend (back to "
     "the first pose over avatar.blend_time, then again); auto: loop when the last pose is "
     "the first (root aside), else hold"},
    {.section = "avatar", .name = "blend_time", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(avatar.blend_time), .lo = 0, .hi = 1e6, .def = "1",
     .help = "clip_end = blend: seconds from the last pose back to the first"},
    {.section = "avatar", .name = "max_skin_step", .type = CLOTH__KEY_CUSTOM,
     .parse = parse_max_skin_step, .def = "auto",
     .help = "the body speed guard: largest move of a skin point in one substep (m) before "
     "the run warns; auto: avatar.offset"},
    {.section = "avatar", .name = "strict", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(avatar.strict), .choices = avatar_off_on, .def = "off",
     .help = "on: the body speed guard fails the run instead of warning"},

    {.section = "run", .name = "kernel", .type = CLOTH__KEY_KERNEL, .offset = OFF(run.kernel),
     .size = CLOTH_NAME_MAX, .def = "explicit",
     .help = "the kernel that steps the cloth (the list above)"},
    {.section = "run", .name = "dt", .type = CLOTH__KEY_DOUBLE, .offset = OFF(run.dt), .lo = 0,
     .hi = INF, .lo_open = 1, .hi_open = 1, .def = "0.01", .help = "frame length (s)"},
    {.section = "run", .name = "substeps", .type = CLOTH__KEY_INT, .offset = OFF(run.substeps),
     .lo = 1, .hi = 100000, .def = "1", .help = "kernel steps per frame, h = dt/substeps"},
    {.section = "run", .name = "frames", .type = CLOTH__KEY_INT, .offset = OFF(run.frames),
     .lo = 0, .hi = 100000000, .def = "100", .help = "frames after frame 0"},
    {.section = "run", .name = "blowup_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(run.blowup_limit), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1,
     .def = "1000", .help = "|x| beyond this counts as diverged (m)"},
    {.section = "run", .name = "seed", .type = CLOTH__KEY_ULONG, .offset = OFF(run.seed),
     .def = "1", .help = "seed of the wind turbulence and of mesh.jitter"},
    {.section = "run", .name = "self_collision", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(run.self_collision), .choices = self_collision_names, .def = "off",
     .help = "cloth-cloth contact: off, on (no crossing: robust stage or newton's IPC), "
     "proximity (vertex-triangle pushes) or particles (vertex pairs); docs/contact.md"},
    {.section = "run", .name = "collision_passes", .type = CLOTH__KEY_INT,
     .offset = OFF(run.collision_passes), .lo = 0, .hi = 1000, .def = "4",
     .help = "run.self_collision = on: CCD impulse passes per step before the impact zones"},
    {.section = "run", .name = "threads", .type = CLOTH__KEY_INT, .offset = OFF(run.threads),
     .lo = 1, .hi = 64, .def = "1",
     .help = "threads of the coloured orders (*.order = coloured); results do not depend on "
     "it"},
};

#define N_COMMON ((int)(sizeof common_keys / sizeof common_keys[0]))

/* The i-th key over the common table and then every kernel's table; *kernel (if given)
 * is the kernel whose table it is, -1 for a common key. */
static const cloth__key *key_of(const cloth__keyset *ks, int i, int *kernel)
{
    if (kernel)
        *kernel = -1;
    if (i < N_COMMON)
        return &common_keys[i];
    i -= N_COMMON;
    const char *name;
    int n;
    const cloth__key *keys;
    for (int k = 0; ks && (keys = ks->kernel_keys(k, &name, &n)) != NULL; k++) {
        if (i < n) {
            if (kernel)
                *kernel = k;
            return &keys[i];
        }
        i -= n;
    }
    return NULL;
}

static const cloth__key *key_at(const cloth__keyset *ks, int i)
{
    return key_of(ks, i, NULL);
}

/* Where the owner of key index's offsets starts in cloth_scene: 0 (the scene) for a
 * common key, the kernel's settings block for a kernel's key; -1 for a kernel past the
 * scene's CLOTH_MAX_KERNELS blocks. */
static long key_owner(const cloth__keyset *ks, int index)
{
    int kernel;
    if (!key_of(ks, index, &kernel))
        return -1;
    if (kernel < 0)
        return 0;
    return kernel < CLOTH_MAX_KERNELS
               ? (long)(offsetof(cloth_scene, kernel) + kernel * sizeof(cloth_kernel_settings))
               : -1;
}

const cloth__key *cloth__key_find(const cloth__keyset *ks, const char *section, const char *name,
                                  int *index)
{
    for (int i = 0; key_at(ks, i); i++) {
        const cloth__key *k = key_at(ks, i);
        if (strcmp(k->section, section) == 0 && strcmp(k->name, name) == 0) {
            if (index)
                *index = i;
            return k;
        }
    }
    return NULL;
}

int cloth__key_index(const cloth__keyset *ks, const char *section, const char *name)
{
    int index = -1;
    cloth__key_find(ks, section, name, &index);
    return index;
}

void cloth__key_where(const cloth_scene *scene, int index, char *buf, size_t size)
{
    if (index < 0 || index >= CLOTH_MAX_KEYS || scene->origin[index].line == 0)
        snprintf(buf, size, "%s", scene->source);
    else if (scene->origin[index].from_set)
        snprintf(buf, size, "--set:%d", scene->origin[index].line);
    else
        snprintf(buf, size, "%s:%d", scene->source, scene->origin[index].line);
}

/* [sweep] declares runs of the scene (sweep.c reads it); the scene itself skips it. */
#define SWEEP_SECTION "sweep"

static int section_known(const cloth__keyset *ks, const char *section)
{
    if (strcmp(section, SWEEP_SECTION) == 0)
        return 1;
    for (int i = 0; key_at(ks, i); i++)
        if (strcmp(key_at(ks, i)->section, section) == 0)
            return 1;
    return 0;
}

/* Marks the obstacle whose section a key belongs to as present. */
static void enable_section(cloth_scene *s, const char *section)
{
    if (strcmp(section, "sphere") == 0)
        s->sphere.enabled = 1;
    else if (strcmp(section, "plane") == 0)
        s->floor.enabled = 1;
    else if (strcmp(section, "avatar") == 0)
        s->avatar.enabled = 1;
}

size_t cloth_scene_size(void)
{
    return sizeof(cloth_scene);
}

void cloth__default_scene(const cloth__keyset *ks, cloth_scene *scene)
{
    memset(scene, 0, sizeof *scene);
    snprintf(scene->source, sizeof scene->source, "<defaults>");
    char why[CLOTH_MSG_MAX];
    for (int i = 0; key_at(ks, i); i++) {
        long owner = key_owner(ks, i);
        if (owner >= 0)
            (void)cloth__value_set(ks, (char *)scene + owner, key_at(ks, i), key_at(ks, i)->def,
                                   why, sizeof why);
    }
}

/* ------------------------------------------------------------------ parsing */

/* Keys that older scene files may still hold, with what replaced them. */
static const struct {
    const char *section, *name, *instead;
} replaced_keys[] = {
    {"newton", "self_contact", "run.self_collision (on | off, for every kernel)"},
    {"newton", "contact_offset", "material.thickness (m), the contact distance of every "
                                 "kernel"},
};

static const char *replaced_by(const char *section, const char *name)
{
    for (size_t i = 0; i < sizeof replaced_keys / sizeof replaced_keys[0]; i++)
        if (!strcmp(section, replaced_keys[i].section) && !strcmp(name, replaced_keys[i].name))
            return replaced_keys[i].instead;
    return NULL;
}

/* Sets section.name = value, recording where it came from. */
static cloth_status assign(const cloth__keyset *ks, cloth_scene *s, const char *section,
                           const char *name, const char *value, const char *where,
                           int from_set, int line, cloth_error *err)
{
    int index;
    const cloth__key *k = cloth__key_find(ks, section, name, &index);
    const char *instead = replaced_by(section, name);
    if (!k && instead)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s.%s: this key was replaced by %s", where,
                           section, name, instead);
    if (!k)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s.%s: unknown key in section [%s]", where,
                           section, name, section);
    /* a value whose meaning moved: run.self_collision = triangles is now proximity (and
     * on, the robust stage, is what the old on never was) */
    if (!strcmp(section, "run") && !strcmp(name, "self_collision") && !strcmp(value, "triangles"))
        return cloth__fail(err, CLOTH_EINVAL, "%s: run.self_collision: 'triangles' was renamed "
                           "'proximity' (vertex-triangle pushes; 'on' is now the robust stage, "
                           "'particles' the vertex pairs)", where);
    long owner = key_owner(ks, index);
    if (owner < 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: %s.%s: the kernel table holds more than "
                           "%d kernels, the scene's settings blocks", where, section, name,
                           CLOTH_MAX_KERNELS);
    char why[CLOTH_MSG_MAX - 64];
    if (cloth__value_set(ks, (char *)s + owner, k, value, why, sizeof why))
        return cloth__fail(err, CLOTH_EINVAL, "%s: %s.%s: %s", where, section, name, why);
    enable_section(s, section);
    if (index < CLOTH_MAX_KEYS) {
        s->origin[index].from_set = (unsigned char)from_set;
        s->origin[index].line = line;
    }
    return CLOTH_OK;
}

/* What the scene parser carries from line to line. */
typedef struct scene_reader {
    const cloth__keyset *ks;
    cloth_scene *scene;
    unsigned char seen[CLOTH_MAX_KEYS];  /* keys set so far, to refuse a second time  */
} scene_reader;

static cloth_status read_scene_line(void *ctx, const cloth__ini_line *l, cloth_error *err)
{
    scene_reader *r = ctx;
    if (!l->key) {
        if (!section_known(r->ks, l->section))
            return cloth__fail(err, CLOTH_EPARSE, "%s: [%s]: unknown section", l->where,
                               l->section);
        enable_section(r->scene, l->section);
        return CLOTH_OK;
    }
    if (strcmp(l->section, SWEEP_SECTION) == 0)
        return CLOTH_OK; /* harness/sweep.c reads it */
    int index;
    if (cloth__key_find(r->ks, l->section, l->key, &index) && index < CLOTH_MAX_KEYS) {
        if (r->seen[index])
            return cloth__fail(err, CLOTH_EPARSE, "%s: %s.%s: set twice (first on line %d)",
                               l->where, l->section, l->key, r->scene->origin[index].line);
        r->seen[index] = 1;
    }
    return assign(r->ks, r->scene, l->section, l->key, l->value, l->where, 0, l->line, err);
}

cloth_status cloth__scene_parse(const cloth__keyset *ks, const char *text, const char *name,
                                cloth_scene *scene, cloth_error *err)
{
    cloth__default_scene(ks, scene);
    snprintf(scene->source, sizeof scene->source, "%s", name);
    scene_reader r = {ks, scene, {0}};
    int content;
    cloth_status st = cloth__ini_parse(text, name, read_scene_line, &r, &content, err);
    if (st == CLOTH_OK && !content)
        return cloth__fail(err, CLOTH_EPARSE, "%s:1: (file): the scene file is empty", name);
    return st;
}

cloth_status cloth__scene_load(const cloth__keyset *ks, const char *path, cloth_scene *scene,
                               cloth_error *err)
{
    char *text;
    cloth_status st = cloth__ini_read_file(path, &text, err);
    if (st != CLOTH_OK)
        return st;
    st = cloth__scene_parse(ks, text, path, scene, err);
    free(text);
    return st;
}

/* Splits "section.key=value" and assigns it; where names its origin in messages. */
static cloth_status assign_text(const cloth__keyset *ks, cloth_scene *scene,
                                const char *assignment, const char *where, int from_set,
                                int line, cloth_error *err)
{
    char buf[1024];
    if (strlen(assignment) >= sizeof buf)
        return cloth__fail(err, CLOTH_EPARSE, "%s: (override): too long", where);
    snprintf(buf, sizeof buf, "%s", assignment);
    char *eq = strchr(buf, '=');
    char *dot = strchr(buf, '.');
    if (!eq || !dot || dot > eq)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s: expected section.key=value", where,
                           assignment);
    *eq = '\0';
    *dot = '\0';
    char *section = cloth__trim(buf), *key = cloth__trim(dot + 1), *value = cloth__trim(eq + 1);
    if (!section_known(ks, section) || strcmp(section, SWEEP_SECTION) == 0)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s.%s: unknown section [%s]", where, section,
                           key, section);
    return assign(ks, scene, section, key, value, where, from_set, line, err);
}

cloth_status cloth__scene_set(const cloth__keyset *ks, cloth_scene *scene,
                              const char *assignment, int arg, cloth_error *err)
{
    char where[32];
    snprintf(where, sizeof where, "--set:%d", arg);
    return assign_text(ks, scene, assignment, where, 1, arg, err);
}

cloth_status cloth__scene_set_at(const cloth__keyset *ks, cloth_scene *scene,
                                 const char *assignment, int line, cloth_error *err)
{
    char where[CLOTH_PATH_MAX + 16];
    snprintf(where, sizeof where, "%s:%d", scene->source, line);
    return assign_text(ks, scene, assignment, where, 0, line, err);
}

void cloth__scene_print_keys(const cloth__keyset *ks, FILE *out, const char *section)
{
    for (int i = 0; key_at(ks, i); i++) {
        const cloth__key *k = key_at(ks, i);
        if (section && strcmp(k->section, section) != 0)
            continue;
        char lhs[64];
        snprintf(lhs, sizeof lhs, "%s.%s = %s", k->section, k->name, k->def);
        fprintf(out, "  %-40s %s\n", lhs, k->help);
    }
}

cloth_status cloth__scene_get(const cloth__keyset *ks, const cloth_scene *scene,
                              const char *key, char *value, size_t size, cloth_error *err)
{
    char section[64];
    const char *dot = strchr(key, '.');
    if (!dot || dot - key >= (long)sizeof section)
        return cloth__fail(err, CLOTH_EINVAL, "%.200s: expected section.key", key);
    snprintf(section, sizeof section, "%.*s", (int)(dot - key), key);
    int index;
    const cloth__key *k = cloth__key_find(ks, section, dot + 1, &index);
    if (!k)
        return cloth__fail(err, CLOTH_EINVAL, "%.200s: unknown key", key);
    long owner = key_owner(ks, index);
    if (owner < 0 || cloth__value_get(k, (const char *)scene + owner, value, size))
        return cloth__fail(err, CLOTH_EINVAL, "%s: cannot be written back as text", key);
    return CLOTH_OK;
}
