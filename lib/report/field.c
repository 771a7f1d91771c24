/* SPDX-License-Identifier: BSD-3-Clause */
/* field.c: a report's fields by path (field.h). */
#include "config.h"
#include "report/field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One step: the key (of an object) or the position (of an array) in the len bytes at step. */
static const json_t *step_into(const json_t *node, const char *step, size_t len)
{
    char key[256], *end;
    unsigned long index;

    if (len >= sizeof key)
        return NULL;
    memcpy(key, step, len);
    key[len] = '\0';
    if (json_is_object(node))
        return json_object_get(node, key);
    if (!json_is_array(node) || len == 0 || key[0] < '0' || key[0] > '9')
        return NULL;
    index = strtoul(key, &end, 10);
    return *end == '\0' ? json_array_get(node, index) : NULL;
}

const json_t *sb_field(const json_t *root, const char *path)
{
    const json_t *node = root;
    const char *p = path;

    while (node && *p) {
        size_t len = strcspn(p, ".");
        node = step_into(node, p, len);
        p += len;
        p += *p == '.';
    }
    return node;
}

const char *sb_text(const json_t *v) { return sb_text_or(v, ""); }

const char *sb_text_or(const json_t *v, const char *missing)
{
    return json_is_string(v) ? json_string_value(v) : missing;
}

const char *sb_field_text(const json_t *root, const char *path)
{
    return sb_text(sb_field(root, path));
}

const char *sb_field_text_or(const json_t *root, const char *path, const char *missing)
{
    return sb_text_or(sb_field(root, path), missing);
}

double sb_field_number(const json_t *root, const char *path)
{
    const json_t *v = sb_field(root, path);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

long long sb_field_integer(const json_t *root, const char *path)
{
    const json_t *v = sb_field(root, path);
    return json_is_integer(v) ? (long long)json_integer_value(v) : 0;
}
