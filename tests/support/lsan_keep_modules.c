/* Preloaded into every process of scripts/sanitize.sh's test run: dlclose()
   does nothing, so shared objects loaded at run time stay mapped until exit.
   Mesa unloads its driver (swrast_dri.so) in eglTerminate; memory the driver
   still pointed to from its own globals would then be reported as leaked,
   from frames LeakSanitizer can no longer name (or names wrongly, after
   another library is mapped at the same address), so no suppression could
   match them. With the module kept, those blocks are reachable and anything
   still reported carries real names for tests/support/lsan.supp. */
#include <stddef.h>

int dlclose(void *handle) {
    (void)handle;
    return 0;
}
