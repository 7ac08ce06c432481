#include "actions/writer.h"

#include <stdlib.h>

void oc_writer_names_free(char ***names, size_t n)
{
	if (!names || !*names)
		return;
	for (size_t i = 0; i < n; i++)
		free((*names)[i]);
	free(*names);
	*names = NULL;
}
