/*
 * Writes the built-in mannequin (src/body/mannequin.c, scale 1) as the two files of an
 * OBJ body (docs/avatar.md): its drawing surface as OBJ (every capsule's closed surface,
 * 24 slices, counter-clockwise seen from outside) and its skeleton as a BVH file whose
 * HIERARCHY gives the rest pose (a bone runs to the first child JOINT, leaves to their
 * End Site), with one frame of zeros so that it is also a clip of the T pose.
 *
 *   build/export_mannequin experiments/avatar/mannequin.obj experiments/avatar/mannequin.bvh
 *
 * (make experiments/avatar/mannequin.obj).  avatar.model = avatar/mannequin.obj with
 * avatar.skeleton = avatar/mannequin.bvh then gives the same surface as model = builtin.
 */
#include "body/mannequin.h"

#include <stdio.h>
#include <stdlib.h>

static void indent(FILE *f, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", f);
}

/* Joint j and its subtree. */
static void write_joint(FILE *f, const cloth__body *b, int j, int depth)
{
    const cloth__skeleton *s = &b->skel;
    const cloth__joint *jt = &s->joint[j];
    indent(f, depth);
    fprintf(f, "%s %s\n", jt->parent < 0 ? "ROOT" : "JOINT", jt->name);
    indent(f, depth);
    fputs("{\n", f);
    indent(f, depth + 1);
    fprintf(f, "OFFSET %.10g %.10g %.10g\n", jt->offset[0], jt->offset[1], jt->offset[2]);
    indent(f, depth + 1);
    fputs(jt->parent < 0 ? "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
                           "Yrotation\n"
                         : "CHANNELS 3 Zrotation Xrotation Yrotation\n", f);
    int children = 0;
    for (int c = j + 1; c < s->n; c++)
        if (s->joint[c].parent == j) {
            write_joint(f, b, c, depth + 1);
            children++;
        }
    if (!children) {
        indent(f, depth + 1);
        fputs("End Site\n", f);
        indent(f, depth + 1);
        fputs("{\n", f);
        indent(f, depth + 2);
        fprintf(f, "OFFSET %.10g %.10g %.10g\n", b->tip[j][0] - s->rest[j][0],
                b->tip[j][1] - s->rest[j][1], b->tip[j][2] - s->rest[j][2]);
        indent(f, depth + 1);
        fputs("}\n", f);
    }
    indent(f, depth);
    fputs("}\n", f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: export_mannequin OUT.obj OUT.bvh\n");
        return 2;
    }
    cloth__body b;
    cloth_error err;
    if (cloth__mannequin(1, &b, &err) != CLOTH_OK || cloth__body_surface(&b, 24, &err) != CLOTH_OK) {
        fprintf(stderr, "export_mannequin: %s\n", err.msg);
        return 1;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "# clothbench's built-in mannequin (experiments/avatar/export_mannequin.c):\n"
               "# %d closed pieces (one a capsule), %d vertices, %d triangles; metres\n",
            b.n_parts, b.n_verts, b.n_tris);
    for (int i = 0; i < b.n_verts; i++)
        fprintf(f, "v %.10g %.10g %.10g\n", b.verts[3 * i], b.verts[3 * i + 1], b.verts[3 * i + 2]);
    for (int t = 0; t < b.n_tris; t++)
        fprintf(f, "f %d %d %d\n", b.tris[3 * t] + 1, b.tris[3 * t + 1] + 1, b.tris[3 * t + 2] + 1);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    f = fopen(argv[2], "w");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    fputs("HIERARCHY\n", f);
    write_joint(f, &b, 0, 0);
    int channels = 6 + 3 * (b.skel.n - 1);
    fputs("MOTION\nFrames: 1\nFrame Time: 0.0333333\n", f);
    /* the root at its offset (no translation), every rotation zero */
    for (int c = 0; c < channels; c++)
        fprintf(f, "%.10g%s", c < 3 ? b.skel.joint[0].offset[c] : 0.0,
                c + 1 < channels ? " " : "\n");
    cloth__body_free(&b);
    return fclose(f) != 0;
}
