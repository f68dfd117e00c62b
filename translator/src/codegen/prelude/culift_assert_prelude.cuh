// ---- culift device asserts: checked only when compiled with -DCULIFT_DEVICE_ASSERTS ----
#ifdef CULIFT_DEVICE_ASSERTS
#define culift_assert(cond, text, file, line) \
  ((cond) ? (void)0 : __assertfail(text, file, line, __func__, sizeof(char)))
#else
#define culift_assert(cond, text, file, line) ((void)0)
#endif
