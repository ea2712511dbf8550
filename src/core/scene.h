/* Private: scenes (scene.c) and the table of their keys.  Every key a scene file may set
 * is one row, with its type, where it lives (in cloth_scene, or in its kernel's settings
 * block of the scene), its range and its default text; the parser, the defaults, --set and `cloth list` all read this one table.  Kernel
 * keys live in the kernel's own file; the caller hands them in as a cloth__keyset (the
 * kernel registry does, kernels/registry.c), so the core builds and is tested without
 * any kernel. */
#ifndef CLOTH_SCENE_H
#define CLOTH_SCENE_H

#include "cloth.h"
#include "core/keys.h"

/* A key found by section and name: its row and its index into cloth_scene.origin (common
 * keys come first, so their index does not depend on the keyset). */
const cloth__key *cloth__key_find(const cloth__keyset *ks, const char *section,
                                  const char *name, int *index);

/* "FILE:LINE" (or "--set:ARG") where key index got its value, or the file name alone
 * when it kept its default. */
void cloth__key_where(const cloth_scene *scene, int index, char *buf, size_t size);

/* Index of the key section.name (for cross-field messages), -1 if none. */
int cloth__key_index(const cloth__keyset *ks, const char *section, const char *name);

/* The public scene functions of cloth.h, over the keys of ks (kernels/registry.c binds
 * them to the kernel table). */
void cloth__default_scene(const cloth__keyset *ks, cloth_scene *scene);
cloth_status cloth__scene_parse(const cloth__keyset *ks, const char *text, const char *name,
                                cloth_scene *scene, cloth_error *err);
cloth_status cloth__scene_load(const cloth__keyset *ks, const char *path, cloth_scene *scene,
                               cloth_error *err);
cloth_status cloth__scene_set(const cloth__keyset *ks, cloth_scene *scene,
                              const char *assignment, int arg, cloth_error *err);
void cloth__scene_print_keys(const cloth__keyset *ks, FILE *out, const char *section);
cloth_status cloth__scene_get(const cloth__keyset *ks, const cloth_scene *scene,
                              const char *key, char *value, size_t size, cloth_error *err);

/* Applies "section.key=value" as if it stood on line `line` of the scene's own file
 * (the sweep declarations do): messages read "FILE:LINE: key: why". */
cloth_status cloth__scene_set_at(const cloth__keyset *ks, cloth_scene *scene,
                                 const char *assignment, int line, cloth_error *err);

#endif
