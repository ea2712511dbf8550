/*
 * cloth body-distance SCENE.ini [--time T] [--set section.key=value]...  < POINTS
 *
 * The signed distance of points to the body of the scene's [avatar] (its posed capsules,
 * the exact distance the try-on's body_depth measures: avatar.h, cloth__avatar_distance),
 * in the pose at time T (default 0): one point "x y z" (m) a line on stdin, one distance
 * (m, negative inside) a line on stdout.  For scripts that measure a garment on the body
 * (experiments/garments/tryon_measure.py, measure_girths.py) without copying the
 * mannequin's numbers.
 */
#include "app/body_distance.h"
#include "body/avatar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cloth__cmd_body_distance(int argc, char **argv)
{
    if (argc < 3 || argv[2][0] == '-') {
        fprintf(stderr, "cloth: body-distance: missing the scene file (see 'cloth help')\n");
        return 2;
    }
    cloth_scene scene;
    cloth_error err;
    if (cloth_scene_load(argv[2], &scene, &err) != CLOTH_OK) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return 2;
    }
    double t = 0;
    for (int i = 3, n = 0; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
            t = strtod(argv[++i], &end);
            if (*end) {
                fprintf(stderr, "cloth: body-distance: --time %s: expected seconds\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
            if (cloth_scene_set(&scene, argv[++i], ++n, &err) != CLOTH_OK) {
                fprintf(stderr, "cloth: %s\n", err.msg);
                return 2;
            }
        } else {
            fprintf(stderr, "cloth: body-distance: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!scene.avatar.enabled) {
        fprintf(stderr, "cloth: %s: body-distance: the scene has no [avatar] section\n", argv[2]);
        return 2;
    }
    cloth_avatar *av;
    const char *key = "";
    cloth_status st = cloth__avatar_create(&scene.avatar, scene.source, &av, &key, &err);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: %s: avatar.%s: %s\n", argv[2], key, err.msg);
        return st == CLOTH_ENOMEM ? 1 : 2;
    }
    cloth__avatar_reset(av, t);
    char line[512];
    long n = 0;
    int code = 0;
    while (fgets(line, sizeof line, stdin)) {
        double x[3];
        n++;
        char extra;
        int got = sscanf(line, "%lf %lf %lf %c", &x[0], &x[1], &x[2], &extra);
        if (got == 0 || got == EOF) {
            if (strspn(line, " \t\r\n") == strlen(line))
                continue; /* blank line */
        }
        if (got != 3) {
            fprintf(stderr, "cloth: body-distance: stdin line %ld: expected x y z (m)\n", n);
            code = 2;
            break;
        }
        printf("%.17g\n", cloth__avatar_distance(av, x));
    }
    cloth__avatar_destroy(av);
    return code;
}
