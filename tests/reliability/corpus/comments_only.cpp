// nothing here
/* still nothing */
