/* The public view of a pipeline's warnings log (dalic_pipeline_*warning*, dalic.h). */
#include "engine/error.h"
#include "engine/pipeline.h"

int64_t dalic_pipeline_num_warnings(const dalic_pipeline_t *p)
{
	return p ? dalic_warnlog_count(dalic_pipeline_warnlog(p)) : 0;
}

int dalic_pipeline_warning(const dalic_pipeline_t *p, int64_t i, dalic_warning_t *out)
{
	if (!p || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_warning: NULL argument");
	if (!dalic_warnlog_get(dalic_pipeline_warnlog(p), i, out))
		return dalic_fail(DALIC_EINVAL, "warning %lld out of range (%lld kept)", (long long)i,
		                  (long long)dalic_pipeline_num_warnings(p));
	return DALIC_OK;
}

int64_t dalic_pipeline_warnings_dropped(const dalic_pipeline_t *p)
{
	return p ? dalic_warnlog_dropped(dalic_pipeline_warnlog(p)) : 0;
}

void dalic_pipeline_clear_warnings(dalic_pipeline_t *p)
{
	if (p)
		dalic_warnlog_clear(dalic_pipeline_warnlog(p));
}
