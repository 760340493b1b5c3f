#include "judge/config.h"

#include <strings.h>

void judge_config_set_device(struct judge_config *config, const char *spec)
{
    config->device = spec;
    config->simulated = spec && strcasecmp(spec, "oclgrind") == 0;
}
