"""French translations of the window's text, written into resources/translations/lmsp_fr.ts.

Run ``python resources/translations/fill_translations.py``
after ``pyside6-lupdate`` has refreshed the
.ts files; it fills every French entry it knows, adds the strings that are built at run
time (settings labels, scope names, storage choices, startup advice), and compiles both
catalogues to .qm with ``pyside6-lrelease``.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "resources" / "translations"

FRENCH: dict[str, str] = {
    "Paired apps": "Applications associées",
    "Name": "Nom",
    "Scopes": "Autorisations",
    "Paired": "Associée le",
    "Last used": "Dernière utilisation",
    "Revoke access": "Révoquer l'accès",
    "No app is paired yet. When an app asks to use your models, LMSP Desktop shows a pairing "
    "dialog.": "Aucune application n'est encore associée. Quand une application demande à "
    "utiliser vos modèles, LMSP Desktop affiche une fenêtre d'association.",
    "never": "jamais",
    "{name} will no longer be able to use LMSP Desktop. Revoke its access?": "{name} ne pourra "
    "plus utiliser LMSP Desktop. Révoquer son accès ?",
    "Download a model": "Télécharger un modèle",
    "Model URL": "URL du modèle",
    "optional": "facultatif",
    "Expected SHA-256": "SHA-256 attendu",
    "URL": "URL",
    "SHA-256": "SHA-256",
    "Import a model": "Importer un modèle",
    "How should LMSP Desktop keep this file?": "Comment LMSP Desktop doit-il conserver ce "
    "fichier ?",
    "Pages": "Pages",
    "Tasks": "Tâches",
    "Click to copy the service address": "Cliquer pour copier l'adresse du service",
    "Service address (copy)": "Adresse du service (copier)",
    "Running and queued tasks": "Tâches en cours et en attente",
    "Data folder": "Dossier de données",
    "Address copied to the clipboard.": "Adresse copiée dans le presse-papiers.",
    "{running} running · {queued} queued": "{running} en cours · {queued} en attente",
    "&File": "&Fichier",
    "&Settings…": "&Paramètres…",
    "&Quit": "&Quitter",
    "&View": "&Affichage",
    "Architecture": "Architecture",
    "Quantization": "Quantification",
    "Size": "Taille",
    "Context": "Contexte",
    "Status": "État",
    "Models": "Modèles",
    "Import…": "Importer…",
    "Download from URL…": "Télécharger depuis une URL…",
    "Verify": "Vérifier",
    "Remove": "Retirer",
    "Tip: drop a .gguf file here to import it.": "Astuce : déposez un fichier .gguf ici pour "
    "l'importer.",
    "No model yet. Add the small starter model (Gemma 3 270M) to try it?": "Aucun modèle pour "
    "l'instant. Ajouter le petit modèle de démarrage (Gemma 3 270M) pour essayer ?",
    "Add starter model": "Ajouter le modèle de démarrage",
    "GGUF models (*.gguf)": "Modèles GGUF (*.gguf)",
    "{name}: {status}": "{name} : {status}",
    "Allow an app to use LMSP Desktop?": "Autoriser une application à utiliser LMSP Desktop ?",
    "<b>{name}</b> wants to use your models.": "<b>{name}</b> souhaite utiliser vos modèles.",
    "App name": "Nom de l'application",
    "Pairing code": "Code d'association",
    "Check that the app shows the same code:": "Vérifiez que l'application affiche le même code :",
    "It asks to:": "Elle demande à :",
    "Time left": "Temps restant",
    "Deny": "Refuser",
    "Allow": "Autoriser",
    "Expires in {seconds} s": "Expire dans {seconds} s",
    "Pairing request": "Demande d'association",
    "{name} wants to use your models.": "{name} souhaite utiliser vos modèles.",
    "Time spent in each phase": "Temps passé dans chaque phase",
    "Recovery report": "Rapport de reprise",
    "Show these tasks": "Afficher ces tâches",
    "Dismiss": "Fermer",
    "Dismiss the recovery report": "Fermer le rapport de reprise",
    "After the last session ended unexpectedly: ": "Après l'arrêt inattendu de la dernière "
    "session : ",
    "Something went wrong; the details are in the log.": "Une erreur s'est produite ; les "
    "détails sont dans le journal.",
    "Settings": "Paramètres",
    "This address is not loopback: other computers on the network will be able to reach the "
    "service.": "Cette adresse n'est pas locale : d'autres ordinateurs du réseau pourront "
    "joindre le service.",
    "Open data folder": "Ouvrir le dossier de données",
    "comma separated": "séparés par des virgules",
    "Select a task to see its timeline.": "Sélectionnez une tâche pour voir sa chronologie.",
    "Event timeline": "Chronologie des événements",
    "Output so far": "Sortie jusqu'ici",
    "No output yet.": "Pas encore de sortie.",
    "{id} — {kind}, {status}": "{id} — {kind}, {status}",
    "ID": "ID",
    "Kind": "Type",
    "Client": "Client",
    "Model": "Modèle",
    "Progress": "Progression",
    "Tokens/s": "Jetons/s",
    "Attempt": "Tentative",
    "Created": "Créée",
    "Duration": "Durée",
    "this computer": "cet ordinateur",
    "Filter by status": "Filtrer par état",
    "All statuses": "Tous les états",
    "Filter by kind": "Filtrer par type",
    "All kinds": "Tous les types",
    "Client id": "ID du client",
    "Filter by client": "Filtrer par client",
    "Search by id": "Rechercher par ID",
    "Search tasks by id": "Rechercher des tâches par ID",
    "Show all tasks": "Afficher toutes les tâches",
    "Cancel": "Annuler",
    "Delete": "Supprimer",
    "Copy output": "Copier la sortie",
    "Copy id": "Copier l'ID",
    "Cancel requested.": "Annulation demandée.",
    "Delete task": "Supprimer la tâche",
    "Delete task {id} and its events? This cannot be undone.": "Supprimer la tâche {id} et "
    "ses événements ? C'est définitif.",
    "Output copied.": "Sortie copiée.",
    "Task id copied.": "ID de la tâche copié.",
    "#": "n°",
    "Time": "Heure",
    "Since start": "Depuis le début",
    "Type": "Type",
    "Details": "Détails",
    "Progress of {name}": "Progression de {name}",
    "Show": "Afficher",
    "Pause new tasks": "Suspendre les nouvelles tâches",
    "Prompt": "Invite",
    "Write a haiku about SQLite": "Écris un haïku sur SQLite",
    "Maximum output tokens": "Nombre maximal de jetons en sortie",
    "Temperature": "Température",
    "Run in the background": "Exécuter en arrière-plan",
    "After a restart": "Après un redémarrage",
    "Max tokens": "Jetons max.",
    "Send": "Envoyer",
    "Stop": "Arrêter",
    "Model output": "Sortie du modèle",
    "The answer appears here as it is written.": "La réponse s'affiche ici au fil de l'écriture.",
    "Choose a model and write a prompt first.": "Choisissez d'abord un modèle et écrivez une "
    "invite.",
    "Queued…": "En attente…",
    "Restarted; the answer starts over.": "Redémarrée ; la réponse recommence.",
    "Failed: {message}": "Échec : {message}",
    "Something went wrong.": "Une erreur s'est produite.",
    # Built at run time.
    "Try it": "Essayer",
    "Clients": "Clients",
    "{page} is not available in this version of the service.": "{page} n'est pas disponible "
    "dans cette version du service.",
    "LMSP Desktop could not start": "LMSP Desktop n'a pas pu démarrer",
    "An unexpected problem stopped the service from starting. The details are in the log.": (
        "Un problème inattendu a empêché le service de démarrer. Les détails sont dans le journal."
    ),
    "Close the other LMSP Desktop, or start this one with another data folder (--data-dir).": (
        "Fermez l'autre LMSP Desktop, ou lancez celui-ci avec un autre dossier de données "
        "(--data-dir)."
    ),
    "This data folder was written by a newer LMSP Desktop. Install that version again, or use "
    "another data folder.": "Ce dossier de données a été écrit par une version plus récente de "
    "LMSP Desktop. Réinstallez cette version, ou utilisez un autre dossier de données.",
    "Restore the database from a backup, or move lmsp.sqlite3 out of the data folder to start "
    "with an empty one.": "Restaurez la base depuis une sauvegarde, ou sortez lmsp.sqlite3 du "
    "dossier de données pour repartir d'une base vide.",
    "Fix the folder's permissions, or choose another one with --data-dir.": "Corrigez les "
    "droits du dossier, ou choisissez-en un autre avec --data-dir.",
    "Stop the program that uses this port, or start with another one (--port, or Port in the "
    "settings).": "Arrêtez le programme qui utilise ce port, ou démarrez avec un autre "
    "(--port, ou Port dans les paramètres).",
    "Copy it into the model store (safest; uses disk space)": "Le copier dans le magasin de "
    "modèles (le plus sûr ; occupe de la place)",
    "Link it into the model store (no extra space; same disk only)": "Le lier dans le magasin "
    "de modèles (sans place en plus ; même disque seulement)",
    "Keep it where it is (the model breaks if the file moves)": "Le laisser où il est (le "
    "modèle ne marche plus si le fichier est déplacé)",
    "The model's file in the model store will be deleted.": "Le fichier du modèle dans le "
    "magasin de modèles sera supprimé.",
    "The link in the model store will be removed; your original file is kept.": "Le lien dans "
    "le magasin de modèles sera retiré ; votre fichier d'origine est conservé.",
    "Your file is kept where it is; only the entry is removed.": "Votre fichier reste où il "
    "est ; seule l'entrée est retirée.",
    "Remove model": "Retirer le modèle",
    "Remove {name}?": "Retirer {name} ?",
    "See the list of models": "Voir la liste des modèles",
    "Import, download and remove models": "Importer, télécharger et retirer des modèles",
    "Generate text with your models": "Générer du texte avec vos modèles",
    "Read the responses it created": "Lire les réponses qu'elle a créées",
    "See its tasks": "Voir ses tâches",
    "Cancel and delete its tasks": "Annuler et supprimer ses tâches",
    "Port": "Port",
    "Bind address": "Adresse d'écoute",
    "Keep finished tasks (days)": "Garder les tâches terminées (jours)",
    "Keep idempotency keys (hours)": "Garder les clés d'idempotence (heures)",
    "Default restart policy": "Reprise par défaut",
    "Max attempts": "Tentatives max.",
    "Tasks at once": "Tâches simultanées",
    "Snapshot every (tokens)": "Instantané tous les (jetons)",
    "Snapshot interval (ms)": "Intervalle des instantanés (ms)",
    "Allowed Host names": "Noms d'hôte autorisés",
    "Allowed origins": "Origines autorisées",
}

PLURALS: dict[str, tuple[str, str]] = {
    "%n more request(s) waiting": ("%n autre demande en attente", "%n autres demandes en attente"),
    "%n restart(s)": ("%n redémarrage", "%n redémarrages"),
    "Showing %n recovered task(s)": ("%n tâche reprise affichée", "%n tâches reprises affichées"),
}

RUNTIME_CONTEXTS: dict[str, tuple[str, ...]] = {
    "Pages": (
        "Models",
        "Try it",
        "Clients",
        "{page} is not available in this version of the service.",
    ),
    "Startup": (
        "LMSP Desktop could not start",
        "An unexpected problem stopped the service from starting. The details are in the log.",
        "Close the other LMSP Desktop, or start this one with another data folder (--data-dir).",
        "This data folder was written by a newer LMSP Desktop. Install that version again, or "
        "use another data folder.",
        "Restore the database from a backup, or move lmsp.sqlite3 out of the data folder to "
        "start with an empty one.",
        "Fix the folder's permissions, or choose another one with --data-dir.",
        "Stop the program that uses this port, or start with another one (--port, or Port in "
        "the settings).",
    ),
    "ImportChoiceDialog": (
        "Copy it into the model store (safest; uses disk space)",
        "Link it into the model store (no extra space; same disk only)",
        "Keep it where it is (the model breaks if the file moves)",
    ),
    "ModelDialogs": (
        "The model's file in the model store will be deleted.",
        "The link in the model store will be removed; your original file is kept.",
        "Your file is kept where it is; only the entry is removed.",
        "Remove model",
        "Remove {name}?",
    ),
    "PairingDialog": (
        "See the list of models",
        "Import, download and remove models",
        "Generate text with your models",
        "Read the responses it created",
        "See its tasks",
        "Cancel and delete its tasks",
    ),
    "SettingsDialog": (
        "Port",
        "Bind address",
        "Keep finished tasks (days)",
        "Keep idempotency keys (hours)",
        "Default restart policy",
        "Max attempts",
        "Tasks at once",
        "Snapshot every (tokens)",
        "Snapshot interval (ms)",
        "Allowed Host names",
        "Allowed origins",
    ),
}


def fill(path: Path, french: bool) -> None:
    tree = ET.parse(path)  # noqa: S314 - our own catalogue
    root = tree.getroot()
    contexts = {c.findtext("name"): c for c in root.iter("context")}
    for name, sources in RUNTIME_CONTEXTS.items():
        context = contexts.get(name)
        if context is None:
            context = ET.SubElement(root, "context")
            ET.SubElement(context, "name").text = name
            contexts[name] = context
        present = {m.findtext("source") for m in context.iter("message")}
        for source in sources:
            if source not in present:
                message = ET.SubElement(context, "message")
                ET.SubElement(message, "source").text = source
                ET.SubElement(message, "translation", {"type": "unfinished"})
    for context in root.iter("context"):
        for message in list(context.iter("message")):
            source = message.findtext("source") or ""
            if source == "Startup":  # the context argument, not a text
                context.remove(message)
                continue
            translation = message.find("translation")
            assert translation is not None
            translation.attrib.pop("type", None)
            if message.get("numerus") == "yes":
                forms = PLURALS.get(source) if french else None
                singular, plural = forms or (
                    source.replace("(s)", ""),
                    source.replace("(s)", "s").replace("requests", "requests"),
                )
                for child in list(translation):
                    translation.remove(child)
                translation.text = None
                for form in (singular, plural):
                    ET.SubElement(translation, "numerusform").text = form
            elif french:
                if source not in FRENCH:
                    print(f"missing French for {source!r}", file=sys.stderr)
                    translation.set("type", "unfinished")
                translation.text = FRENCH.get(source, "")
            else:
                translation.text = source
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)


def main() -> int:
    fill(TRANSLATIONS / "lmsp_fr.ts", french=True)
    fill(TRANSLATIONS / "lmsp_en.ts", french=False)
    lrelease = Path(sys.executable).with_name("pyside6-lrelease")
    for name in ("lmsp_fr", "lmsp_en"):
        subprocess.run(
            [
                str(lrelease),
                str(TRANSLATIONS / f"{name}.ts"),
                "-qm",
                str(TRANSLATIONS / f"{name}.qm"),
            ],
            check=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
