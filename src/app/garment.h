/* Private: the `cloth garment` command (garment.c). */
#ifndef CLOTH_APP_GARMENT_H
#define CLOTH_APP_GARMENT_H

/* cloth garment PATTERN.json ...: returns the exit code (0, 1 a failed sewing or I/O,
 * 2 bad input). */
int cloth__cmd_garment(int argc, char **argv);

#endif
