-- Records $2 as detect's value for the name $1 in detection_state, replacing the one before.
INSERT INTO detection_state (name, value) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET value = excluded.value
