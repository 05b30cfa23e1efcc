-- A short line about a person, one per language: the same columns as
-- db/migrations/20261205000000_person_about.sql (decision 066).
ALTER TABLE people ADD COLUMN about_english text NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN about_hindi text NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN about_marathi text NOT NULL DEFAULT '';
