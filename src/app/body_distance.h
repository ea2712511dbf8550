/* Private: the `cloth body-distance` command (body_distance.c). */
#ifndef CLOTH_APP_BODY_DISTANCE_H
#define CLOTH_APP_BODY_DISTANCE_H

/* cloth body-distance SCENE.ini [--time T]: returns the exit code (0, 1 I/O, 2 bad
 * input). */
int cloth__cmd_body_distance(int argc, char **argv);

#endif
