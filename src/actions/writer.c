#include "actions/writer.h"

#include "core/hostlist.h"

void oc_writer_names_free(char ***names, size_t n)
{
	oc_hostlist_names_free(names, n);
}
