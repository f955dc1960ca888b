/* The engine layer's warnings (e.g. a one-time GPU fallback, a setting ignored): they go
   to the handler the gateway sets, Octave's warning (). */
#ifndef GPUSCAN_WARNINGS_H
#define GPUSCAN_WARNINGS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*engine_warning_handler) (const char *id, const char *msg);
void engine_set_warning_handler (engine_warning_handler h);
void engine_warn (const char *id, const char *msg);

#ifdef __cplusplus
}
#endif
#endif
