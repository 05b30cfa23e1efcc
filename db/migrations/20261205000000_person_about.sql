-- A short line about a person (years, one sentence), one per language, as
-- their names are; '' where none was given (issue 31, decision 066).
ALTER TABLE people ADD COLUMN about_english TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN about_hindi TEXT NOT NULL DEFAULT '';
ALTER TABLE people ADD COLUMN about_marathi TEXT NOT NULL DEFAULT '';
