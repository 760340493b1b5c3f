#include "judge/config.h"

#include <strings.h>

const char *judge_config_stage_lock(const struct judge_config *config)
{
    return config->lock_whole_labs ? NULL : config->device_lock;
}

void judge_config_set_device(struct judge_config *config, const char *spec)
{
    config->device = spec;
    config->simulated = spec && strcasecmp(spec, "oclgrind") == 0;
}
