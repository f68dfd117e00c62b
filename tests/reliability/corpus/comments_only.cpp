// nothing here
/* still nothing */
// expected-error@file {{no functions annotated with CULIFT_KERNEL in}}
