"""Webhook delivery on the local service: the signing key (signing_key), the settings
(settings), the outbox's rows (outbox), the deliverer that sends them (deliverer) and the
samples `POST /webhooks/trigger` sends (samples). Each module loads only when used: the
service's start pays for none of it until its lifespan starts the deliverer."""
