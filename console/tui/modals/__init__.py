"""Dialogs: confirmations, the one-time key reveal, lost-update and code warnings."""

from console.tui.modals.code_warning import CodeWarningModal
from console.tui.modals.confirm import (
    ConfirmModal,
    DiscardChangesModal,
    QuitUnsavedModal,
    RegenerateConfirm,
    TypeToConfirmModal,
)
from console.tui.modals.file_changed import FileChangedModal
from console.tui.modals.key_reveal import MASK, KeyRevealModal
from console.tui.modals.lost_update import FieldChange, LostUpdateModal

__all__ = [
    "MASK",
    "CodeWarningModal",
    "ConfirmModal",
    "DiscardChangesModal",
    "FieldChange",
    "FileChangedModal",
    "KeyRevealModal",
    "LostUpdateModal",
    "QuitUnsavedModal",
    "RegenerateConfirm",
    "TypeToConfirmModal",
]
