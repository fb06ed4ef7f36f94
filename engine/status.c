/* Status codes and the version, both from the tables in include/dalic.h. */
#include "dalic.h"

const char *dalic_strerror(int status)
{
	switch (status) {
#define STATUS_TEXT(name, value, text)                                                             \
	case DALIC_##name:                                                                         \
		return text;
		DALIC_STATUS_MAP(STATUS_TEXT)
#undef STATUS_TEXT
	}
	return "unknown status";
}

const char *dalic_err_name(int status)
{
	switch (status) {
#define STATUS_NAME(name, value, text)                                                             \
	case DALIC_##name:                                                                         \
		return "DALIC_" #name;
		DALIC_STATUS_MAP(STATUS_NAME)
#undef STATUS_NAME
	}
	return "DALIC_E?";
}

unsigned dalic_version(void)
{
	return DALIC_VERSION_NUMBER;
}

const char *dalic_version_string(void)
{
	return DALIC_VERSION;
}
